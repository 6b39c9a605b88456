/** now, nowHour, nowWeekday: the decision time in UTC, so a policy reads the same hour anywhere. */
import { isoTime } from "../iso-time.js";

export interface TimeFacts {
  now: string;
  nowHour: number;
  nowWeekday: number;
}

export function timeFacts(now: Date): TimeFacts {
  return {
    // RFC 3339 UTC to the second: `2026-11-21T12:00:00Z`.
    now: `${isoTime(now.getTime()).slice(0, -5)}Z`,
    nowHour: now.getUTCHours(),
    // 0 = Sunday, as JavaScript counts.
    nowWeekday: now.getUTCDay(),
  };
}
