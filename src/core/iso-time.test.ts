import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isoDate, isoTime } from "./iso-time.js";

describe("isoTime", () => {
  it("writes exactly what toISOString writes, over the whole range of dates", () => {
    fc.assert(
      fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => {
        expect(isoTime(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 20_000 },
    );
  });

  it("writes what toISOString writes around now, minute and second edges included", () => {
    const now = Date.UTC(2026, 10, 24, 23, 59, 59, 999);
    for (const ms of [now, now + 1, now - 59_999, now + 60_000, 0, -1, 1, 999, 1000, 59_999, 60_000, -60_000, -60_001]) {
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    }
    fc.assert(fc.property(fc.integer({ min: now - 86_400_000, max: now + 86_400_000 }), (ms) => isoTime(ms) === new Date(ms).toISOString()));
  });

  it("takes whole milliseconds, as Date does", () => {
    for (const ms of [1.5, -1.5, 59_999.9, -0]) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it("refuses what toISOString refuses", () => {
    for (const bad of [NaN, Infinity, -Infinity, 8.64e15 + 1, -8.64e15 - 1]) {
      expect(() => isoTime(bad)).toThrow(RangeError);
    }
  });

  it("formats a Date", () => {
    const d = new Date("2026-11-21T12:00:00.045Z");
    expect(isoDate(d)).toBe("2026-11-21T12:00:00.045Z");
  });
});
