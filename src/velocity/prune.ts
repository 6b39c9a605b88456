/**
 * Pruning the ledger in the background (`velocity_prune_batch`, migrations/sql/functions/velocity.sql).
 *
 * A bucket finer than a day is read only by a window no longer than FINE_BUCKETS_KEPT_SECONDS (window-plan.ts: a
 * longer window reads its oldest partial day from the charges), so buckets finer than a day are
 * kept FINE_BUCKETS_KEPT_SECONDS plus MARGIN (clocks, a void arriving late), whatever the bundles in force: a
 * replica running a bundle with a longer window than the pruning replica's must still find what it
 * reads. Charges and the day buckets are kept for the retention (COUNTERSIGN_LEDGER_RETENTION), or
 * the longest window in force (active bundle, and the shadow bundle when configured) plus MARGIN
 * when that is longer:
 * `policy replay` sums the charges of past decisions' windows, and the audit views and queries
 * list them. Every replica runs a pruner; the database's advisory lock lets one prune at a time.
 *
 * Those horizons are this process's; `velocity_prune_batch` itself never deletes what the longest window
 * claimed by a live `serve` process reads (claims.ts), plus MARGIN, whatever horizon it is given:
 * another process's longer window is kept even when this one's retention is shorter. It says
 * when it kept more than asked (`PruneResult.kept`).
 */
import { sql } from "kysely";
import type { Db } from "../database.js";
import { describeError, type Logger } from "../log.js";
import { FINE_BUCKETS_KEPT_SECONDS } from "./window-plan.js";

const DAY_SECONDS = 86_400;
export const MARGIN_SECONDS = DAY_SECONDS;
/** Rows per statement: each batch is one short transaction. */
export const PRUNE_BATCH = 2_000;

export interface PruneHorizon {
  /** Buckets finer than a day starting before this are deleted. */
  fineBefore: Date;
  /** Charges charged, and day buckets starting, before this are deleted. */
  chargesBefore: Date;
}

export function pruneHorizon(now: Date, longestWindowSeconds: number, retentionSeconds: number): PruneHorizon {
  const fineKeep = FINE_BUCKETS_KEPT_SECONDS + MARGIN_SECONDS;
  const chargesKeep = Math.max(retentionSeconds, longestWindowSeconds + MARGIN_SECONDS, fineKeep);
  return { fineBefore: new Date(now.getTime() - fineKeep * 1000), chargesBefore: new Date(now.getTime() - chargesKeep * 1000) };
}

/** What the database kept past the horizon asked, because a window in force reads it. */
export interface KeptForWindow {
  /** The longest window claimed by a live `serve` process, in seconds. */
  windowSeconds: number;
  /** Charges and day buckets charged since this were kept (the window plus MARGIN). */
  chargesKeptSince: Date;
}

export interface PruneResult {
  /** Rows deleted (buckets and charges together). */
  pruned: number;
  batches: number;
  /** False when another session held the pruner's lock. */
  elected: boolean;
  /** Set when the database clamped the horizon to a claimed window (the last batch's answer). */
  kept?: KeptForWindow;
}

interface BatchAnswer {
  deleted: number;
  charges_kept_before: Date | string | null;
  claimed_window_seconds: number | null;
  clamped: boolean | null;
}

function keptForWindow(answer: BatchAnswer): KeptForWindow | undefined {
  if (answer.clamped !== true || answer.claimed_window_seconds === null || answer.charges_kept_before === null) return undefined;
  return { windowSeconds: Number(answer.claimed_window_seconds), chargesKeptSince: new Date(answer.charges_kept_before) };
}

/**
 * Batches until one deletes less than a full batch, or `maxBatches` ran. Each batch is its own
 * transaction with a statement timeout, so no lock on the ledger is held long.
 */
export async function pruneLedger(db: Db, horizon: PruneHorizon, options: { batch?: number; maxBatches?: number } = {}): Promise<PruneResult> {
  const batch = options.batch ?? PRUNE_BATCH;
  const maxBatches = options.maxBatches ?? 1_000;
  let pruned = 0;
  let batches = 0;
  let kept: KeptForWindow | undefined;
  while (batches < maxBatches) {
    const answer = await db.transaction().execute(async (trx) => {
      await sql`set local statement_timeout = '10s'`.execute(trx);
      const { rows } = await sql<BatchAnswer>`
        select deleted, charges_kept_before, claimed_window_seconds, clamped
        from velocity_prune_batch(${horizon.fineBefore.toISOString()}::timestamptz, ${horizon.chargesBefore.toISOString()}::timestamptz, ${batch}::int)`.execute(trx);
      return rows[0];
    });
    const deleted = Number(answer?.deleted ?? 0);
    if (deleted < 0) return { pruned, batches, elected: false };
    batches += 1;
    pruned += deleted;
    if (answer) kept = keptForWindow(answer);
    // A batch deletes up to `batch` buckets and `batch` charges: less than that and both are done.
    if (deleted < batch) break;
  }
  return { pruned, batches, elected: true, ...(kept ? { kept } : {}) };
}

export interface LedgerPrunerOptions {
  db: Db;
  logger: Logger;
  clock: () => Date;
  /** The longest window of the bundles in force now (seconds); read at every run. */
  longestWindowSeconds: () => number;
  retentionSeconds: number;
  intervalMs?: number;
  onPruned?: (rows: number) => void;
}

/** Runs a minute after start and then every `intervalMs` (default an hour); returns a stop function. */
export function startLedgerPruner(o: LedgerPrunerOptions): { stop(): Promise<void> } {
  const intervalMs = o.intervalMs ?? 60 * 60 * 1000;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  let busy = false;
  const run = () => {
    // A pass still going when the next is due (a slow database, a short interval): skip, never overlap.
    if (busy) return;
    busy = true;
    const horizon = pruneHorizon(o.clock(), o.longestWindowSeconds(), o.retentionSeconds);
    running = pruneLedger(o.db, horizon)
      .then(
        (result) => {
          o.onPruned?.(result.pruned);
          if (result.pruned > 0)
            o.logger.info({ pruned: result.pruned, batches: result.batches, fineBefore: horizon.fineBefore, chargesBefore: horizon.chargesBefore }, "velocity ledger pruned");
          if (result.kept)
            o.logger.info(
              { windowSeconds: result.kept.windowSeconds, chargesKeptSince: result.kept.chargesKeptSince },
              "velocity ledger pruning kept charges a window in force reads",
            );
        },
        (error: unknown) => o.logger.warn(describeError(error), "velocity ledger pruning failed; retrying at the next run"),
      )
      .finally(() => {
        busy = false;
      });
  };
  const first = setTimeout(() => !stopped && run(), Math.min(intervalMs, 60_000));
  first.unref();
  const timer = setInterval(() => !stopped && run(), intervalMs);
  timer.unref();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
      await running;
    },
  };
}
