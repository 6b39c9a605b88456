/**
 * `Date.prototype.toISOString`, faster on the decision path, where a delivery formats about twenty
 * instants (its window pieces, its row's time, its log line): V8 formats each through vsnprintf,
 * a measurable share of the service's instructions per decision (docs/performance.md). Instants of one minute share everything up to the seconds, so that prefix is
 * formatted once and kept.
 */

const MINUTE_MS = 60_000;
const MAX_TIME_MS = 8.64e15;
/** Minutes whose prefix is kept; the window pieces of a decision span a handful. */
const CACHED_MINUTES = 512;
const prefixes = new Map<number, string>();

/** The same text as `new Date(ms).toISOString()`; throws RangeError for an invalid time. */
export function isoTime(time: number): string {
  // As Date does: whole milliseconds (toward zero), within ±8.64e15.
  const ms = Math.trunc(time);
  if (!(Math.abs(ms) <= MAX_TIME_MS)) throw new RangeError("Invalid time value");
  const minute = Math.floor(ms / MINUTE_MS);
  let prefix = prefixes.get(minute);
  if (prefix === undefined) {
    prefix = new Date(minute * MINUTE_MS).toISOString().slice(0, -7);
    if (prefixes.size >= CACHED_MINUTES) prefixes.clear();
    prefixes.set(minute, prefix);
  }
  const withinMinute = ms - minute * MINUTE_MS;
  const seconds = Math.floor(withinMinute / 1000);
  const millis = withinMinute - seconds * 1000;
  return `${prefix}${seconds < 10 ? "0" : ""}${seconds}.${millis < 10 ? "00" : millis < 100 ? "0" : ""}${millis}Z`;
}

/** isoTime of a Date. */
export function isoDate(date: Date): string {
  return isoTime(date.getTime());
}
