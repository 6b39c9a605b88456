/** Durations as written in configuration and policy windows: an integer and a unit s, m, h or d. */
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** Seconds, or null when the text is not a duration. */
export function parseDuration(text: string): number | null {
  const match = /^([0-9]{1,9})([smhd])$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * UNIT_SECONDS[match[2]!]!;
}

/** Seconds as a duration is written: whole days as `900d`, anything else in seconds. */
export function formatDuration(seconds: number): string {
  return seconds % 86_400 === 0 ? `${seconds / 86_400}d` : `${seconds}s`;
}

/**
 * The longest duration a policy may give a window or a review's expiry: ten years. Far beyond any
 * velocity limit or review, and far inside what a date can hold — an unbounded one (`999999999d`)
 * made the window's start an invalid date, and every decision reading it deferred.
 */
export const MAX_POLICY_DURATION_DAYS = 3660;

/** Whether `text` is a policy duration: positive, and at most MAX_POLICY_DURATION_DAYS. */
export function isPolicyDuration(text: string): boolean {
  const seconds = parseDuration(text);
  return seconds !== null && seconds > 0 && seconds <= MAX_POLICY_DURATION_DAYS * 86400;
}
