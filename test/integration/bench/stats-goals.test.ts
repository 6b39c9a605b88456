import { describe, expect, it } from "vitest";
import { goals, goalsOverRounds, median, met, ratioLines } from "../../../bench/goals.js";
import { percentile } from "../../../bench/stats.js";

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

describe("the ratios against the goals", () => {
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

  it("judges this checkout on the baseline's own policy against the baseline as no slower (at least 1)", () => {
    const same = goals({ ...inputs, samePolicy: { perSecond: 252 } }).at(-1)!;
    expect([same.what, same.value, met(same)]).toEqual(["same policy as baseline / baseline 32c2789", 1.05, true]);
    expect(met(goals({ ...inputs, samePolicy: { perSecond: 230 } }).at(-1)!)).toBe(false);
    expect(goals({ ...inputs, baseline: null, samePolicy: { perSecond: 252 } }).map((g) => g.what)).not.toContain("same policy as baseline / baseline 32c2789");
  });

  it("judges the ratio to the baseline against its goal of 3 only for the baseline that goal was set against", () => {
    const other = goals({ ...inputs, baselineRef: "9f363c2", baseline: { perSecond: 100 } }).at(-1)!;
    expect([other.what, other.value, other.bound, met(other)]).toEqual(["countersign(16) / baseline 9f363c2", 6, "none", false]);
    expect(ratioLines([{ ...inputs, baselineRef: "9f363c2" }])[4]).toMatch(/baseline 9f363c2 +2\.50 +no goal \(the goal of 3 is against 32c2789\)$/);
    expect(ratioLines([inputs])[4]).toMatch(/baseline 32c2789 +2\.50 +goal >= 3 +NOT met$/);
  });

  it("says plainly when no baseline was measured", () => {
    const lines = ratioLines([{ ...inputs, baseline: null, baselineRef: null }]);
    expect(lines).toHaveLength(5);
    expect(lines[4]).toContain("no baseline measured");
    expect(lines[0]).toMatch(/0\.60 +goal >= 0\.5 +met$/);
  });

  describe("over several rounds", () => {
    const slower = { ...inputs, at16: { perSecond: 450, latencyP99: 70 }, baseline: { perSecond: 150 } };
    const faster = { ...inputs, at16: { perSecond: 700, latencyP99: 30 }, ceiling: { perSecond: 1400 } };

    it("takes each round's ratio from that round's figures and judges the goal on the median round", () => {
      const g = goalsOverRounds([inputs, slower, faster]);
      const perCeiling = g[0]!;
      expect(perCeiling.rounds).toEqual([0.6, 0.45, 0.5]);
      expect(perCeiling.value).toBe(0.5);
      expect(met(perCeiling)).toBe(true);
      const p99 = g[3]!;
      expect(p99.rounds).toEqual([40, 70, 30]);
      expect(p99.value).toBe(40);
      expect(met(p99)).toBe(true);
      const perBaseline = g[4]!;
      expect(perBaseline.rounds).toEqual([2.5, 3, 700 / 240]);
      expect(perBaseline.value).toBe(700 / 240);
      expect(met(perBaseline)).toBe(false);
    });

    it("prints the median and every round's value", () => {
      const lines = ratioLines([inputs, slower, faster]);
      expect(lines[0]).toMatch(/0\.50 +goal >= 0\.5 +met +rounds 0\.60, 0\.45, 0\.50$/);
      expect(lines[3]).toMatch(/40\.0 ms +goal <= 50 ms +met +rounds 40\.0, 70\.0, 30\.0$/);
    });

    it("a single round prints as before, without a rounds list", () => {
      const lines = ratioLines([inputs]);
      expect(lines[0]).toMatch(/^countersign\(16\) \/ SQL ceiling +0\.60 +goal >= 0\.5 +met$/);
      expect(lines[3]).toMatch(/^p99 at 16 connections +40\.0 ms +goal <= 50 ms +met$/);
      expect(lines.join("\n")).not.toContain("rounds");
    });
  });

  describe("median", () => {
    it("is the middle value, or the mean of the two middle ones", () => {
      expect(median([3, 1, 2])).toBe(2);
      expect(median([4, 1, 3, 2])).toBe(2.5);
      expect(median([7])).toBe(7);
    });

    it("is NaN without values or with a NaN among them", () => {
      expect(median([])).toBeNaN();
      expect(median([1, NaN, 3])).toBeNaN();
    });
  });
});
