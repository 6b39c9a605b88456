/**
 * How a window total is read without touching every charge in it (see README.md).
 *
 * A window at `now` holds the live charges with charged_at > now − duration. That half-line is
 * cut into pieces that each cost a bounded number of rows:
 *
 *   (start, s)        exact charges, from the charges table: at most one second's worth
 *   [s, m)            1-second buckets     (≤ 59 rows)
 *   [m, h)            1-minute buckets     (≤ 59 rows)
 *   [h, d)            1-hour buckets       (≤ 23 rows)
 *   [d, ∞)            1-day buckets        (duration / 1 d + 1 rows)
 *
 * where s is the first whole second strictly after start, and m, h, d are the first minute, hour
 * and day boundaries at or after s, m and h. Every bucket read lies wholly inside the window, so
 * the edge at start is exact to the microsecond whatever its alignment.
 *
 * Why no upper edge at `now`: a charge stamped after `now` can only come from a transaction that
 * committed while this one waited for its lock, or from another process whose clock runs ahead.
 * Leaving it out would let both be approved past the limit; counting it is the safe side.
 */

/** Bucket widths in seconds, finest first. Must match the check in the velocity migration. */
export const BUCKET_WIDTHS = [1, 60, 3600, 86400] as const;

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

export function planWindow(now: Date, durationSeconds: number): WindowPlan {
  const nowMs = now.getTime();
  if (!Number.isFinite(nowMs)) throw new RangeError("window read at an invalid date");
  if (!Number.isFinite(durationSeconds) || durationSeconds <= 0) {
    throw new RangeError(`window duration must be a positive number of seconds, got ${durationSeconds}`);
  }
  const startMs = nowMs - Math.round(durationSeconds * 1000);
  const edgeUntilMs = Math.floor(startMs / 1000) * 1000 + 1000;
  const buckets: BucketRange[] = [];
  let fromMs = edgeUntilMs;
  BUCKET_WIDTHS.forEach((width, i) => {
    const next = BUCKET_WIDTHS[i + 1];
    const untilMs = next === undefined ? null : ceilTo(fromMs, next * 1000);
    buckets.push({ widthSeconds: width, from: new Date(fromMs), until: untilMs === null ? null : new Date(untilMs) });
    if (untilMs !== null) fromMs = untilMs;
  });
  return { edgeAfter: new Date(startMs), edgeUntil: new Date(edgeUntilMs), buckets };
}

function ceilTo(ms: number, stepMs: number): number {
  return Math.ceil(ms / stepMs) * stepMs;
}
