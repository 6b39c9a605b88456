import { describe, expect, it } from "vitest";
import { BUCKET_WIDTHS, FINE_BUCKETS_KEPT_SECONDS, planWindow } from "../../../src/velocity/window-plan.js";

const NOW = new Date("2026-11-21T12:34:56.789Z");

describe("planWindow", () => {
  it.each([1, 59, 60, 61, 90, 3599, 3600, 3661, 86_399, 86_400, 7 * 86_400])("cuts (now − %i s, ∞) into contiguous aligned pieces", (duration) => {
    const plan = planWindow(NOW, duration);
    expect(plan.edgeAfter.getTime()).toBe(NOW.getTime() - duration * 1000);
    expect(plan.edgeUntil.getTime() - plan.edgeAfter.getTime()).toBeGreaterThan(0);
    expect(plan.edgeUntil.getTime() - plan.edgeAfter.getTime()).toBeLessThanOrEqual(BUCKET_WIDTHS[0] * 1000);
    let from = plan.edgeUntil.getTime();
    plan.buckets.forEach((range, i) => {
      expect(range.widthSeconds).toBe(BUCKET_WIDTHS[i]);
      expect(range.from.getTime()).toBe(from);
      expect(range.from.getTime() % (range.widthSeconds * 1000)).toBe(0);
      if (range.until === null) return;
      expect((range.until.getTime() - range.from.getTime()) / (range.widthSeconds * 1000)).toBeLessThan((BUCKET_WIDTHS[i + 1] ?? Infinity) / range.widthSeconds);
      from = range.until.getTime();
    });
    expect(plan.buckets.at(-1)?.until).toBeNull();
  });

  it("leaves a start exactly on a minute out of the exact edge and out of the first bucket", () => {
    const plan = planWindow(new Date("2026-11-21T12:00:00.000Z"), 60);
    expect(plan.edgeAfter.toISOString()).toBe("2026-11-21T11:59:00.000Z");
    expect(plan.edgeUntil.toISOString()).toBe("2026-11-21T12:00:00.000Z");
    expect(plan.buckets[0]?.from.toISOString()).toBe("2026-11-21T12:00:00.000Z");
  });

  it("plans any layout it is given, the exact edge at most one finest bucket", () => {
    const plan = planWindow(NOW, 86_400, [1, 60, 3600, 86400]);
    expect(plan.edgeUntil.toISOString()).toBe("2026-11-20T12:34:57.000Z");
    expect(plan.buckets.map((b) => b.widthSeconds)).toEqual([1, 60, 3600, 86400]);
  });

  it("reads a window longer than the fine buckets are kept from the charges to its first day boundary, then from day buckets", () => {
    // A replica whose bundle has only short windows prunes fine buckets older than that (prune.ts).
    const plan = planWindow(NOW, 60 * 86_400);
    expect(plan.edgeAfter.toISOString()).toBe("2026-09-22T12:34:56.789Z");
    expect(plan.edgeUntil.toISOString()).toBe("2026-09-23T00:00:00.000Z");
    expect(plan.buckets).toEqual([{ widthSeconds: 86_400, from: new Date("2026-09-23T00:00:00.000Z"), until: null }]);
    expect(planWindow(NOW, FINE_BUCKETS_KEPT_SECONDS).buckets.map((b) => b.widthSeconds)).toEqual([...BUCKET_WIDTHS]);
  });

  it("refuses a duration that is not positive and a date that is not valid", () => {
    expect(() => planWindow(NOW, 0)).toThrow(RangeError);
    expect(() => planWindow(NOW, Number.NaN)).toThrow(RangeError);
    expect(() => planWindow(new Date(Number.NaN), 60)).toThrow(RangeError);
  });
});
