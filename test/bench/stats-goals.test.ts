import { describe, expect, it } from "vitest";
import { goals, met, ratioLines } from "../../bench/goals.js";
import { percentile } from "../../bench/stats.js";

describe("percentile (nearest rank)", () => {
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);

  it("is the smallest sample with at least q of the samples at or below it", () => {
    expect(percentile(hundred, 0.5)).toBe(50);
    expect(percentile(hundred, 0.99)).toBe(99);
    expect(percentile(hundred, 0.999)).toBe(100);
    expect(percentile(hundred, 0)).toBe(1);
    expect(percentile(hundred, 1)).toBe(100);
  });

  it("p99.9 of 1,000 samples is the 999th, not the largest", () => {
    const thousand = Array.from({ length: 1000 }, (_, i) => i + 1);
    expect(percentile(thousand, 0.999)).toBe(999);
  });

  it("is NaN without samples", () => {
    expect(percentile([], 0.5)).toBeNaN();
  });
});

describe("the ratios against issue 13's goals", () => {
  const inputs = {
    at16: { perSecond: 600, latencyP99: 40 },
    floor: { perSecond: 5000 },
    ceiling: { perSecond: 1000 },
    hot: { perSecond: 100 },
    baseline: { perSecond: 240 },
    baselineRef: "32c2789",
  };

  it("computes each ratio from its figures and says whether it meets its goal", () => {
    const g = goals(inputs);
    expect(g.map((x) => [x.what, x.value, met(x)])).toEqual([
      ["countersign(16) / SQL ceiling", 0.6, true],
      ["SQL ceiling / durable floor", 0.2, false],
      ["hot wallet / uncontended (16)", 100 / 600, false],
      ["p99 at 16 connections", 40, true],
      ["countersign(16) / baseline 32c2789", 2.5, false],
    ]);
  });

  it("says plainly when no baseline was measured", () => {
    const lines = ratioLines({ ...inputs, baseline: null, baselineRef: null });
    expect(lines).toHaveLength(5);
    expect(lines[4]).toContain("no baseline measured");
    expect(lines[0]).toMatch(/0\.60 +goal >= 0\.5 +met$/);
  });
});
