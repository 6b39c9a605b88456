/**
 * How a window total is read without touching every charge in it (see README.md).
 *
 * A window at `now` holds the live charges with charged_at > now − duration. That half-line is
 * cut into pieces that each cost a bounded number of rows:
 *
 *   (start, m)        exact charges, from the charges table: at most one minute's worth
 *   [m, h)            1-minute buckets     (≤ 59 rows)
 *   [h, d)            1-hour buckets       (≤ 23 rows)
 *   [d, ∞)            1-day buckets        (duration / 1 d + 1 rows)
 *
 * where m is the first whole minute strictly after start, and h, d are the first hour and day
 * boundaries at or after m and h. Every bucket read lies wholly inside the window, so the edge at
 * start is exact to the microsecond whatever its alignment. (Why minutes and not seconds at the
 * edge: bench/ledger-layout.ts — a 1-second width costs a fresh bucket row on nearly every charge
 * and saves the read less than it costs; see README.md.)
 *
 * A window longer than FINE_BUCKETS_KEPT_SECONDS starts where the minute and hour buckets may be
 * pruned (src/velocity/prune.ts keeps them that long, whatever window any replica's bundle holds):
 * its exact edge runs to the first day boundary after its start, read from the charges (kept for the
 * retention), and only day buckets follow. One day of one group's charges, for such windows alone.
 *
 * Why no upper edge at `now`: a charge stamped after `now` can only come from a transaction that
 * committed while this one waited for its lock, or from another process whose clock runs ahead.
 * Leaving it out would let both be approved past the limit; counting it is the safe side.
 */

/** Bucket widths in seconds, finest first. Must match the check in the velocity migration. */
export const BUCKET_WIDTHS = [60, 3600, 86400] as const;

/** How long buckets finer than the coarsest are kept (src/velocity/prune.ts), and read. */
export const FINE_BUCKETS_KEPT_SECONDS = 35 * 86_400;

export interface BucketRange {
  widthSeconds: number;
  /** Inclusive. */
  from: Date;
  /** Exclusive; null for "no end". */
  until: Date | null;
}

export interface WindowPlan {
  /** Exact charges with start < charged_at < edgeUntil. */
  edgeAfter: Date;
  edgeUntil: Date;
  buckets: BucketRange[];
}

/**
 * `widths` (finest first, each a multiple of the one before) is the ledger's layout; only the
 * layout bench (bench/ledger-layout.ts) passes anything but BUCKET_WIDTHS. The exact edge covers
 * at most one finest bucket.
 */
export function planWindow(now: Date, durationSeconds: number, widths: readonly number[] = BUCKET_WIDTHS): WindowPlan {
  const nowMs = now.getTime();
  if (!Number.isFinite(nowMs)) throw new RangeError("window read at an invalid date");
  if (!Number.isFinite(durationSeconds) || durationSeconds <= 0) {
    throw new RangeError(`window duration must be a positive number of seconds, got ${durationSeconds}`);
  }
  const startMs = nowMs - Math.round(durationSeconds * 1000);
  // Past the fine buckets' keeping, only the coarsest width is read (see above).
  const read = durationSeconds > FINE_BUCKETS_KEPT_SECONDS ? widths.slice(-1) : widths;
  const finestMs = (read[0] ?? 1) * 1000;
  const edgeUntilMs = Math.floor(startMs / finestMs) * finestMs + finestMs;
  const buckets: BucketRange[] = [];
  let fromMs = edgeUntilMs;
  read.forEach((width, i) => {
    const next = read[i + 1];
    const untilMs = next === undefined ? null : ceilTo(fromMs, next * 1000);
    buckets.push({ widthSeconds: width, from: new Date(fromMs), until: untilMs === null ? null : new Date(untilMs) });
    if (untilMs !== null) fromMs = untilMs;
  });
  return { edgeAfter: new Date(startMs), edgeUntil: new Date(edgeUntilMs), buckets };
}

function ceilTo(ms: number, stepMs: number): number {
  return Math.ceil(ms / stepMs) * stepMs;
}
