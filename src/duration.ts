/** Durations as written in configuration and policy windows: an integer and a unit s, m, h or d. */
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** Seconds, or null when the text is not a duration. */
export function parseDuration(text: string): number | null {
  const match = /^([0-9]{1,9})([smhd])$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * UNIT_SECONDS[match[2]!]!;
}
