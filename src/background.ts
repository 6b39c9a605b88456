/**
 * The parts of the service that work beside the request path: the address-book sync (when the
 * custody API is configured) and the event webhook's effects (when its public key is configured).
 * Each contributes what the decision path reads, readiness checks and status for `/v1/policy`.
 */
import type { RequestHandler } from "express";
import { custodyClientFromConfig } from "./addressbook/custody-client.js";
import { createAddressBookSource, type AddressBookSource } from "./addressbook/source.js";
import { PUBLIC_SYNC_ERRORS, type CustodyErrorCode } from "./addressbook/errors.js";
import { createAddressBookSync, type AddressBookSync } from "./addressbook/sync.js";
import type { VaultSyncStatus } from "./addressbook/sync-status.js";
import { notConfiguredView } from "./core/addressbook/types.js";
import type { Config } from "./config.js";
import type { Db } from "./database.js";
import { parseEventsPublicKey } from "./events/public-key.js";
import { createEventsHandler } from "./http/routes/events.js";
import type { ReadinessCheck } from "./readiness.js";
import { describeError, type Logger } from "./log.js";
import type { ServiceMetrics } from "./telemetry/metrics.js";
import { countChargesAgain, voidCharges } from "./velocity/ledger.js";
import { keepDecisionPartitions } from "./audit/partitions.js";
import { startSealer } from "./audit/sealer.js";
import { startLedgerPruner } from "./velocity/prune.js";
import { startClockCheck, type ClockCheck } from "./db/clock-check.js";
import type { WindowClaims } from "./velocity/claims.js";

export interface Background {
  addressBook: AddressBookSource;
  /** This process's clock against the database's (src/db/clock-check.ts): decisions wait while they differ. */
  clock: ClockCheck;
  readiness: ReadinessCheck[];
  /** `GET /v1/policy`'s address-book section; `detailed` keeps each sync error's own message. */
  policyExtras: (detailed: boolean) => Promise<Record<string, unknown>>;
  eventsHandler?: RequestHandler;
  /** The running sync, when configured (the CLI's `addressbook sync` and tests use it). */
  sync?: AddressBookSync;
  stop(): Promise<void>;
}

export interface BackgroundOptions {
  config: Readonly<Config>;
  db: Db;
  logger: Logger;
  clock: () => Date;
  metrics: ServiceMetrics;
  /** The longest velocity window of the bundles in force (active and shadow), for the ledger pruner. */
  longestWindowSeconds: () => number;
  /** This process's window claims (made at boot for the bundles in force), refreshed here on a heartbeat. */
  claims: WindowClaims;
  /** The host's clock as the clock check reads it (tests skew it); default Date.now. */
  hostNow?: () => number;
}

const NOT_CONFIGURED: AddressBookSource = { viewFor: async (vault) => notConfiguredView(vault), staleReason: () => null };

export function startBackground(options: BackgroundOptions): Background {
  const { config, db, logger, clock } = options;
  const api = config.custodyApi;
  let sync: AddressBookSync | undefined;
  if (api) {
    sync = createAddressBookSync({
      db,
      client: custodyClientFromConfig(api),
      vaults: api.vaults,
      refreshSeconds: api.refreshSeconds,
      maxAgeSeconds: api.maxAgeSeconds,
      limits: api.syncLimits,
      clock,
      onResult: (result) => {
        options.metrics.addressBookSync(result.ok ? result.value.vault : (result.error.vault ?? "unknown"), result.ok ? "ok" : result.error.code);
        if (result.ok) logger.info({ vault: result.value.vault, entries: result.value.entries, ownAddresses: result.value.ownAddresses }, "address book synced");
        else logger.warn({ vault: result.error.vault, code: result.error.code, error: result.error.message }, "address book sync failed");
      },
    });
    sync.start();
  }
  const running = sync;
  const clockCheck = startClockCheck({ db, logger, toleranceMs: config.maxClockSkewMs, ...(options.hostNow ? { hostNow: options.hostNow } : {}) });
  const sealer = config.auditSeal ? startSealer({ db, logger }) : undefined;
  const stopPartitions = keepDecisionPartitions(db, logger);
  const heartbeat = options.claims.startHeartbeat();
  const pruner = startLedgerPruner({
    db,
    logger,
    clock,
    longestWindowSeconds: options.longestWindowSeconds,
    retentionSeconds: config.ledgerRetentionSeconds,
    onPruned: (rows) => options.metrics.ledgerPruned(rows),
  });
  const stopAgeGauge = running ? options.metrics.observeAddressBookAge(() => running.status()) : () => undefined;
  const eventsHandler = config.eventsPublicKeyPem
    ? createEventsHandler({
        db,
        publicKey: parseEventsPublicKey(config.eventsPublicKeyPem),
        now: clock,
        logger,
        metrics: { signatureRejected: () => options.metrics.eventSignatureRejected() },
        onTransactionFailed: async (name) => {
          const { voided } = await voidCharges(db, name, clock());
          if (voided > 0) logger.info({ transaction: name, voided }, "velocity charges voided");
        },
        onTransactionConfirmed: async (name) => {
          const { counted } = await countChargesAgain(db, name);
          if (counted > 0) logger.warn({ transaction: name, counted }, "velocity charges voided before count again: the platform reported the transaction CONFIRMED");
        },
        onWalletChanged: async (vault) => {
          // syncWallets reports a failed sync as a value, not a rejection. Throwing here makes
          // the event answer 503 with no event_effects row, so the platform's redelivery retries
          // the sync instead of the new address staying external until the next periodic sync.
          const result = await running?.syncWallets(vault);
          if (result && !result.ok) throw result.error;
        },
      })
    : undefined;
  return {
    addressBook: api ? createAddressBookSource(db, api) : NOT_CONFIGURED,
    clock: clockCheck,
    readiness: [clockCheck.readiness, claimReadiness(options.claims), ...(running ? [addressBookReadiness(running)] : [])],
    policyExtras: async (detailed) => ({
      addressBook: running ? { ...(await syncStatusSection(running, detailed)), internal: INTERNAL_BY_COPY } : { configured: false, internal: INTERNAL_BY_NAME },
    }),
    ...(eventsHandler ? { eventsHandler } : {}),
    ...(running ? { sync: running } : {}),
    stop: async () => {
      clockCheck.stop();
      stopPartitions();
      await sealer?.stop();
      await pruner.stop();
      await heartbeat.stop();
      stopAgeGauge();
      await running?.stop().catch((error: unknown) => logger.warn(describeError(error), "address book sync did not stop cleanly"));
    },
  };
}

/** What `transfer.*.internal` means in this mode (docs/interface.md section 4), for `GET /v1/policy`. */
const INTERNAL_BY_COPY = "synced copy: a custodied wallet of the vault that the last sync listed (unknown wallets are not internal; vaults not in COUNTERSIGN_VAULTS defer)";
const INTERNAL_BY_NAME = "wallet name: any wallet resource name of the transaction's vault (address-book sync is off)";

/** The status is read from the database: when that is down, say so rather than fail the request. */
const STATUS_UNREADABLE = "address-book sync status cannot be read (database not reachable)";

/**
 * A readiness check must answer, not throw: a rejection would turn the whole of `/readyz` into a
 * 500 and hide the database check's own answer exactly when the database is down.
 */
function addressBookReadiness(sync: AddressBookSync): ReadinessCheck {
  return {
    name: "addressBook",
    check: async () => {
      const statuses = await sync.status().catch(() => null);
      if (statuses === null) return STATUS_UNREADABLE;
      const stale = statuses.filter((s) => s.stale);
      return stale.length === 0 ? null : stale.map((s) => s.staleReason).join("; ");
    },
  };
}

/** Not ready while the windows in force are not claimed, or may lapse (heartbeats failing). */
function claimReadiness(claims: WindowClaims): ReadinessCheck {
  return { name: "velocityWindowClaims", check: () => claims.readiness().catch(() => "the velocity window claims cannot be checked") };
}

/** `GET /v1/policy` keeps showing the active policy while the sync status cannot be read. */
async function syncStatusSection(sync: AddressBookSync, detailed: boolean): Promise<Record<string, unknown>> {
  const vaults = await sync.status().catch(() => null);
  if (vaults === null) return { configured: true, vaults: null, error: STATUS_UNREADABLE };
  // The status is open to anyone who reaches the port: a failure's own words (the API's host and
  // port, its error text) only with the admin token; the log and address_book_sync keep them.
  return { configured: true, vaults: detailed ? vaults : vaults.map(withPublicError) };
}

function withPublicError(status: VaultSyncStatus): VaultSyncStatus {
  if (status.lastError === null) return status;
  const code = status.lastError.code;
  const message = PUBLIC_SYNC_ERRORS[code as CustodyErrorCode] ?? "the sync failed";
  return { ...status, lastError: { ...status.lastError, message: `${message} (details with the admin token, or in the log)` } };
}
