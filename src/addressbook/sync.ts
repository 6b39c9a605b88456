/**
 * Syncing one vault: read its address book, its wallets (archived included), each custodied
 * wallet's addresses and the names of its external wallets from the custody API, then replace
 * the stored copy in one transaction.
 * Any failure leaves the last good copy in place and records the error; the copy then ages
 * until freshness.ts declares it stale and transfers defer.
 */
import type { Db } from "../database.js";
import { err, ok, type Result } from "../core/errors.js";
import type { CustodyClient } from "./custody-client.js";
import { vaultName } from "./copy.js";
import { CustodyApiError } from "./errors.js";
import { recordSyncFailure, replaceVaultCopy, type ReplaceOutcome } from "./store.js";
import { fetchVaultCopy } from "./fetch-vault.js";
import { readSyncStatus, type VaultSyncStatus } from "./sync-status.js";
import type { SyncLimits } from "./sync-budget.js";

export interface SyncDeps {
  db: Db;
  client: CustodyClient;
  clock: () => Date;
  /** Wallets whose addresses are read at once (default 4). */
  walletConcurrency?: number;
  /** What one vault's sync may read (default DEFAULT_SYNC_LIMITS); tests lower it. */
  limits?: Partial<SyncLimits>;
}

export interface VaultSyncReport {
  vault: string;
  outcome: ReplaceOutcome["kind"];
  generation: number;
  entries: number;
  ownAddresses: number;
  /** When the fetch started: the copy reflects the API at least as of this time. */
  syncedAt: Date;
}

export type VaultSyncResult = Result<VaultSyncReport, CustodyApiError>;

/** Never rejects: every failure is a CustodyApiError value, also recorded in the status row. */
export async function syncVault(deps: SyncDeps, vault: string): Promise<VaultSyncResult> {
  const name = vaultName(vault);
  const startedAt = deps.clock();
  const fetched = await fetchVaultCopy(deps.client, name, deps.walletConcurrency ?? 4, deps.limits).catch(() =>
    err(new CustodyApiError("NETWORK", "SyncVault", name, "unexpected failure while fetching")),
  );
  if (!fetched.ok) return failed(deps, name, fetched.error);
  const { entries, ownAddresses, externalWallets, custodiedWallets } = fetched.value;
  try {
    const outcome = await replaceVaultCopy(deps.db, name, entries, ownAddresses, startedAt, externalWallets, custodiedWallets);
    const report = { vault: name, outcome: outcome.kind, generation: outcome.generation, syncedAt: startedAt };
    return ok({ ...report, entries: entries.length, ownAddresses: ownAddresses.length });
  } catch {
    // The database's own message may quote rows; the code and the vault are enough here.
    return failed(deps, name, new CustodyApiError("STORE", "SyncVault", name, "the new copy could not be stored; the previous copy is kept"));
  }
}

async function failed(deps: SyncDeps, vault: string, error: CustodyApiError): Promise<VaultSyncResult> {
  try {
    await recordSyncFailure(deps.db, vault, { code: error.code, message: error.message }, deps.clock());
  } catch {
    // The database is down too: the copy cannot change either, and the caller gets the API error.
  }
  return err(error);
}

export interface AddressBookSyncOptions {
  db: Db;
  client: CustodyClient;
  /** Vault ids (or `vaults/{id}` names) whose copies are kept. */
  vaults: readonly string[];
  refreshSeconds: number;
  /** For status(); the contract's default is 15 minutes. */
  maxAgeSeconds?: number;
  clock?: () => Date;
  walletConcurrency?: number;
  /** What one vault's sync may read (default DEFAULT_SYNC_LIMITS). */
  limits?: Partial<SyncLimits>;
  /** Timer, injectable for tests; the default is an unref'd setTimeout. */
  schedule?: (run: () => void, ms: number) => { cancel(): void };
  /** Called after every vault sync, for logging and metrics. */
  onResult?: (result: VaultSyncResult) => void;
}

export interface AddressBookSync {
  /** Syncs every vault now, then again `refreshSeconds` after each run ends (runs never overlap). */
  start(): void;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
  /** Syncs every vault once; joins a vault's sync already in progress. */
  syncAll(): Promise<VaultSyncResult[]>;
  /**
   * For WALLET_CREATED / WALLET_ADDRESS_CREATED events: re-syncs the vault with data read after
   * this call (a sync already in progress may have read the wallets before the event, so one more
   * follows it). Null for a vault that is not configured.
   */
  syncWallets(vault: string): Promise<VaultSyncResult | null>;
  status(): Promise<VaultSyncStatus[]>;
}

export function createAddressBookSync(options: AddressBookSyncOptions): AddressBookSync {
  const clock = options.clock ?? (() => new Date());
  const deps: SyncDeps = {
    db: options.db,
    client: options.client,
    clock,
    ...(options.walletConcurrency ? { walletConcurrency: options.walletConcurrency } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
  };
  const vaults = [...new Set(options.vaults.map(vaultName))];
  const schedule = options.schedule ?? defaultSchedule;
  const runs = createSingleFlight((vault) =>
    syncVault(deps, vault).then((result) => {
      try {
        options.onResult?.(result);
      } catch {
        // A failing log hook must not stop the sync loop.
      }
      return result;
    }),
  );
  let running = false;
  let timer: { cancel(): void } | undefined;
  let currentRun: Promise<unknown> = Promise.resolve();

  const syncAll = () => Promise.all(vaults.map((v) => runs.join(v)));
  const tick = () => {
    timer = undefined;
    currentRun = syncAll()
      .catch(() => undefined)
      .then(() => {
        // After a stop() and start() while a run was in progress, only one timer may be armed.
        if (running && timer === undefined) timer = schedule(tick, options.refreshSeconds * 1000);
      });
  };

  return {
    start() {
      if (running) return;
      running = true;
      tick();
    },
    async stop() {
      running = false;
      timer?.cancel();
      timer = undefined;
      await currentRun;
      await runs.idle();
    },
    syncAll,
    async syncWallets(vault) {
      const name = vaultName(vault);
      return vaults.includes(name) ? runs.after(name) : null;
    },
    status: () => readSyncStatus(options.db, vaults, clock(), options.maxAgeSeconds ?? 900),
  };
}

/**
 * At most one sync per vault at a time. `join` shares a sync in progress; `after` wants data read
 * after the call, so it queues one follow-up (shared by every `after` caller while queued).
 */
function createSingleFlight(run: (vault: string) => Promise<VaultSyncResult>) {
  const inFlight = new Map<string, Promise<VaultSyncResult>>();
  const queued = new Map<string, Promise<VaultSyncResult>>();
  const launch = (vault: string): Promise<VaultSyncResult> => {
    const promise = run(vault).finally(() => {
      if (inFlight.get(vault) === promise) inFlight.delete(vault);
    });
    inFlight.set(vault, promise);
    return promise;
  };
  const join = (vault: string) => inFlight.get(vault) ?? launch(vault);
  return {
    join,
    after(vault: string): Promise<VaultSyncResult> {
      const current = inFlight.get(vault);
      if (current === undefined) return launch(vault);
      const waiting = queued.get(vault);
      if (waiting !== undefined) return waiting;
      const followUp = current.then(() => {
        queued.delete(vault);
        // A sync launched after `current` ended also read after this call: share it.
        return join(vault);
      });
      queued.set(vault, followUp);
      return followUp;
    },
    async idle(): Promise<void> {
      while (inFlight.size > 0 || queued.size > 0) await Promise.allSettled([...inFlight.values(), ...queued.values()]);
    },
  };
}

function defaultSchedule(run: () => void, ms: number): { cancel(): void } {
  const handle = setTimeout(run, ms);
  handle.unref();
  return { cancel: () => clearTimeout(handle) };
}
