/** now, nowHour, nowWeekday: the decision time in UTC, so a policy reads the same hour anywhere. */

export interface TimeFacts {
  now: string;
  nowHour: number;
  nowWeekday: number;
}

export function timeFacts(now: Date): TimeFacts {
  return {
    // RFC 3339 UTC to the second: `2026-11-21T12:00:00Z`.
    now: now.toISOString().replace(/\.\d{3}Z$/, "Z"),
    nowHour: now.getUTCHours(),
    // 0 = Sunday, as JavaScript counts.
    nowWeekday: now.getUTCDay(),
  };
}
