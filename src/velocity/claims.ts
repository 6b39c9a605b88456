/**
 * Window claims: how a `serve` process tells every pruner what its windows read
 * (`velocity_window_claim` in migrations/sql/functions/velocity.sql, docs/policies.md "The ledger's
 * layout and pruning").
 *
 * Retention is a per-process setting, and pruning is done by whichever process runs it (another
 * replica, an operator's `countersign velocity prune` with another COUNTERSIGN_LEDGER_RETENTION).
 * So each serving process claims, in the database, the longest window of each bundle it has in
 * force, and `velocity_prune_batch` keeps what the longest live claim reads whatever it is asked.
 *
 * A bundle is claimed before it takes effect (boot, reload), then refreshed on a heartbeat; a claim
 * lapses when not refreshed for `lapseSeconds`, so a replica that died stops holding pruning back.
 * None of this is on the decision path: a decision sends no statement for it.
 */
import { hostname } from "node:os";
import { sql } from "kysely";
import type { Db } from "../database.js";
import { formatDuration } from "../duration.js";
import type { Result } from "../core/errors.js";
import { describeError, type Logger } from "../log.js";

/** How often a serving process refreshes its claims. */
export const CLAIM_HEARTBEAT_SECONDS = 5 * 60;
/** A claim lapses no sooner than this after its last refresh: a dozen heartbeats may fail first. */
export const MIN_CLAIM_LAPSE_SECONDS = 60 * 60;
/** The longest lapse `velocity_window_claim` accepts (90 days). */
const MAX_CLAIM_LAPSE_SECONDS = 90 * 86_400;

export interface ClaimError {
  code: "CLAIM_FAILED";
  message: string;
}

/**
 * How long a claim counts after its last refresh: an hour, or twice the policy reload interval
 * plus a heartbeat when that is longer (a reload that could not claim is retried at the next poll,
 * and the claim in force must outlive that).
 */
export function claimLapseSeconds(reloadIntervalSeconds: number): number {
  return Math.min(MAX_CLAIM_LAPSE_SECONDS, Math.max(MIN_CLAIM_LAPSE_SECONDS, 2 * reloadIntervalSeconds + CLAIM_HEARTBEAT_SECONDS));
}

/** This process, as the claims table names it: the host (the pod's name in Kubernetes) and the pid. */
export function processHolder(): string {
  return `${hostname()}:${process.pid}`.slice(0, 200);
}

/** The longest window of a bundle, in seconds; 0 when it has none (nothing to claim). */
export function longestWindowSeconds(bundle: { windows: readonly { durationSeconds: number }[] }): number {
  return Math.max(0, ...bundle.windows.map((w) => w.durationSeconds));
}

/**
 * Claims each window (seconds; zeros are skipped) for `holder`, in one transaction. The database
 * only adds a claim or pushes its lapse later: a shorter window claimed later does not shorten a
 * longer one, which keeps counting until it lapses.
 */
export async function claimWindows(db: Db, holder: string, windows: readonly number[], lapseSeconds: number): Promise<Result<number[], ClaimError>> {
  const distinct = [...new Set(windows.filter((w) => w > 0))];
  if (distinct.length === 0) return { ok: true, value: [] };
  try {
    await db.transaction().execute(async (trx) => {
      for (const window of distinct) {
        await sql`select velocity_window_claim(${holder}, ${window}::int, ${lapseSeconds}::int)`.execute(trx);
      }
    });
    return { ok: true, value: distinct };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      error: { code: "CLAIM_FAILED", message: `cannot claim the velocity windows in force (${distinct.map(formatDuration).join(", ")}) in the database: ${why}` },
    };
  }
}

export interface WindowClaims {
  /** Claims the given windows now (the windows in force when none are given); remembers when it last succeeded. */
  claim(windows?: readonly number[]): Promise<Result<number[], ClaimError>>;
  /** Refreshes the windows in force every CLAIM_HEARTBEAT_SECONDS; returns a stop function. */
  startHeartbeat(): { stop(): Promise<void> };
  /**
   * For readiness: null while the last claim is younger than half the lapse; otherwise claims
   * again now (a pod started before its migration, a database that was away) and says why not
   * when that fails too. Costs a statement only when the claim is stale.
   */
  readiness(): Promise<string | null>;
}

export interface WindowClaimsOptions {
  db: Db;
  logger: Logger;
  holder: string;
  lapseSeconds: number;
  /** The longest window of each bundle in force (live and shadow). */
  windowsInForce: () => number[];
  heartbeatMs?: number;
}

export function createWindowClaims(o: WindowClaimsOptions): WindowClaims {
  let lastClaimedAt: Date | null = null;
  const claim = async (windows: readonly number[] = o.windowsInForce()) => {
    const result = await claimWindows(o.db, o.holder, windows, o.lapseSeconds);
    if (result.ok) lastClaimedAt = new Date();
    return result;
  };
  // The real clock, as the database's now() that claims lapse by (the service's clock is injectable).
  const fresh = () => lastClaimedAt !== null && Date.now() - lastClaimedAt.getTime() <= (o.lapseSeconds * 1000) / 2;
  return {
    claim,
    startHeartbeat() {
      let running: Promise<unknown> = Promise.resolve();
      const timer = setInterval(
        () => {
          running = claim().then(
            (result) => {
              if (!result.ok) o.logger.warn({ code: result.error.code, error: result.error.message }, "velocity window claim not refreshed; retrying at the next heartbeat");
            },
            (error: unknown) => o.logger.warn(describeError(error), "velocity window claim not refreshed"),
          );
        },
        o.heartbeatMs ?? CLAIM_HEARTBEAT_SECONDS * 1000,
      );
      timer.unref();
      return {
        stop: async () => {
          clearInterval(timer);
          await running;
        },
      };
    },
    async readiness() {
      if (fresh()) return null;
      const since = lastClaimedAt === null ? "never claimed" : `last claimed ${lastClaimedAt.toISOString()}`;
      const again = await claim();
      if (again.ok) return null;
      return `the velocity windows in force are not claimed in the database (${since}); another process's pruner may delete what they read`;
    },
  };
}
