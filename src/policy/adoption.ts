/**
 * Which policy bundle is the newest in force among the serving processes, and whether this one is
 * deciding by an older one (`policy_adoptions`, `policy_holders`: migrations/baseline/tables.sql). A merged pull request
 * reaches the pods one by one, and a pod whose git-sync keeps failing never gets it; the
 * co-signer's polls land on any pod and defers are not final, so a pod still on the replaced
 * bundle signed what the new one defers or denies. Now a process that sees a newer bundle in force
 * on a live process stands down (the webhook answers 503, the co-signer asks again) until it loads
 * that bundle, or until no live process decides by it any more.
 *
 * "Newer" is when a process last took the bundle up as a change, by the database's clock: a reload
 * that applied it (a merge, or a revert to an older digest), or a start on a bundle that no process
 * had before. A restart on a bundle already known (a stuck git-sync's last checkout) adopts
 * nothing, so it cannot make an old bundle the newest again.
 *
 * Not on the decision path: it reads a state this module refreshes every few seconds.
 */
import { sql } from "kysely";
import type { Db } from "../database.js";
import { describeError, type Logger } from "../log.js";

/** How often this process says which bundle it decides by, and looks for a newer one. */
export const ADOPTION_HEARTBEAT_MS = 5_000;
/** A process that has not said which bundle it decides by for this long is gone. */
export const HOLDER_LIVE_SECONDS = 30;

export interface BundleInForce {
  version: string;
  digest: string;
}

/** A newer bundle a live process decides by. */
export interface NewerBundle extends BundleInForce {
  adoptedAt: Date;
}

export type AdoptionState = { kind: "unknown" } | { kind: "newest" } | { kind: "superseded"; newer: NewerBundle };

/**
 * Records `holder` deciding by `bundle`; as a change, the bundle becomes the newest adopted, as of
 * `agoSeconds` before now (a change applied earlier whose write failed: a change adopted elsewhere
 * since stays newer).
 */
export async function adoptBundle(db: Db, holder: string, bundle: BundleInForce, change: boolean, agoSeconds = 0, deciding = true): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (change) {
      await sql`insert into policy_adoptions (digest, version, adopted_at) values (${bundle.digest}, ${bundle.version}, now() - make_interval(secs => ${agoSeconds}))
        on conflict (digest) do update set adopted_at = greatest(policy_adoptions.adopted_at, excluded.adopted_at), version = excluded.version`.execute(trx);
    } else {
      await sql`insert into policy_adoptions (digest, version) values (${bundle.digest}, ${bundle.version}) on conflict (digest) do nothing`.execute(trx);
    }
    await sql`insert into policy_holders (holder, digest, deciding) values (${holder}, ${bundle.digest}, ${deciding})
      on conflict (holder) do update set digest = excluded.digest, deciding = excluded.deciding, seen_at = now()`.execute(trx);
  });
}

/**
 * Refreshes `holder`'s row (adopting its bundle as a change when `change`, one whose adoption has
 * not been written yet; `deciding` false while it cannot decide) and returns the newest bundle
 * adopted after its own that another live process decides by. A process that is not deciding (not
 * listening yet, or standing down for its clock) makes no one stand down: a bundle nobody can
 * decide by would otherwise leave every process deciding nothing.
 */
export async function newerInForce(
  db: Db,
  holder: string,
  bundle: BundleInForce,
  liveSeconds = HOLDER_LIVE_SECONDS,
  changedSecondsAgo: number | null = null,
  deciding = true,
): Promise<NewerBundle | null> {
  await adoptBundle(db, holder, bundle, changedSecondsAgo !== null, changedSecondsAgo ?? 0, deciding);
  // A process that died left its row; a day later nobody needs to know what it decided by.
  await sql`delete from policy_holders where seen_at < now() - interval '1 day'`.execute(db);
  const { rows } = await sql<{ digest: string; version: string; adopted_at: Date | string }>`
    select a.digest, a.version, a.adopted_at
      from policy_holders h join policy_adoptions a on a.digest = h.digest
     where h.seen_at > now() - make_interval(secs => ${liveSeconds}) and h.holder <> ${holder} and h.deciding
       and a.adopted_at > (select own.adopted_at from policy_adoptions own where own.digest = ${bundle.digest})
     order by a.adopted_at desc
     limit 1`.execute(db);
  const row = rows[0];
  return row ? { digest: row.digest, version: row.version, adoptedAt: new Date(row.adopted_at) } : null;
}

/** Why a process in this state may not decide, or null when it may. */
export function adoptionProblem(state: AdoptionState, own: BundleInForce): string | null {
  if (state.kind === "newest") return null;
  if (state.kind === "unknown") return "the policy bundles other processes decide by have not been read yet";
  const n = state.newer;
  return `a newer policy bundle is in force on another process (version ${n.version}, digest ${n.digest.slice(0, 12)}, adopted ${n.adoptedAt.toISOString()}): this process decides by version ${own.version} (digest ${own.digest.slice(0, 12)}) and decides nothing until it loads the newer one or no live process decides by it`;
}

export interface PolicyAdoption {
  /** Records the bundle in force: at start (`change` false) and after each reload that applied one (true). */
  adopt(change: boolean): Promise<void>;
  /** Looks for a newer bundle in force elsewhere now; a failed read leaves the state as it was. */
  check(): Promise<void>;
  /** Why decisions must wait (the webhook defers), or null. */
  problem(): string | null;
  /** For `GET /v1/policy`: the newer bundle in force elsewhere, if any. */
  newerElsewhere(): NewerBundle | null;
  /** Stops the heartbeat and removes this process's row, so that it no longer counts as live. */
  stop(): Promise<void>;
}

export interface PolicyAdoptionOptions {
  db: Db;
  logger: Logger;
  holder: string;
  current: () => BundleInForce;
  /** Whether this process can decide now (listening, its clock in step); default always. */
  deciding?: () => boolean;
  intervalMs?: number;
}

export function startPolicyAdoption(o: PolicyAdoptionOptions): PolicyAdoption {
  let state: AdoptionState = { kind: "unknown" };
  let failing = false;
  // A reload applied a bundle whose adoption as a change failed (a database blip): written at the
  // next check, or a revert to a known digest would stay older than the bundle it reverted.
  let changePending: number | null = null;
  const own = () => ({ version: o.current().version, digest: o.current().digest });
  const deciding = o.deciding ?? (() => true);
  const settle = (next: AdoptionState) => {
    if (next.kind !== state.kind || (next.kind === "superseded" && state.kind === "superseded" && next.newer.digest !== state.newer.digest)) report(o.logger, next, own());
    state = next;
    failing = false;
  };
  const failed = (error: unknown) => {
    // The database being down fails every decision anyway; say so once.
    if (!failing) o.logger.warn(describeError(error), "the policy bundles in force could not be compared; retrying");
    failing = true;
  };
  const check = async () => {
    try {
      const pending = changePending;
      const checked = own();
      const newer = await newerInForce(o.db, o.holder, checked, HOLDER_LIVE_SECONDS, pending === null ? null : (performance.now() - pending) / 1000, deciding());
      if (pending !== null && changePending === pending) changePending = null;
      // A reload applied another bundle meanwhile: this answer was for the one it replaced (it made a pod stand down for its own new bundle), and
      // the reload's adoption checks again.
      if (own().digest !== checked.digest) return;
      settle(newer ? { kind: "superseded", newer } : { kind: "newest" });
    } catch (error) {
      failed(error);
    }
  };
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => void (running = check()), o.intervalMs ?? ADOPTION_HEARTBEAT_MS);
  timer.unref();
  return {
    adopt: async (change) => {
      const at = performance.now();
      try {
        await adoptBundle(o.db, o.holder, own(), change, 0, deciding());
      } catch (error) {
        if (change) changePending = at;
        failed(error);
      }
      await check();
    },
    check,
    problem: () => adoptionProblem(state, own()),
    newerElsewhere: () => (state.kind === "superseded" ? state.newer : null),
    stop: async () => {
      clearInterval(timer);
      await running;
      await sql`delete from policy_holders where holder = ${o.holder}`.execute(o.db).catch(() => undefined);
    },
  };
}

function report(logger: Logger, state: AdoptionState, own: BundleInForce): void {
  if (state.kind === "superseded") logger.error({ version: own.version, digest: own.digest, newer: state.newer }, adoptionProblem(state, own)!);
  else if (state.kind === "newest") logger.info({ version: own.version, digest: own.digest }, "this process decides by the newest policy bundle in force");
}
