import { describe, expect, it } from "vitest";
import { fmtSteal, splitBetween, withCpuSplit } from "../../bench/cpu-split.js";

describe("the CPU split printed beside each bench figure", () => {
  it("reads steal and idle (with iowait) as shares of all ticks between two samples", () => {
    // user nice system idle iowait irq softirq steal
    const split = splitBetween([100, 0, 50, 1000, 10, 0, 5, 20], [160, 0, 70, 1080, 20, 0, 5, 50]);
    expect(split).toEqual({ stealPct: 15, idlePct: 45 });
    expect(fmtSteal(split)).toBe("   steal 15%");
  });

  it("prints nothing when no time passed or the split could not be read", () => {
    expect(splitBetween([1, 2, 3], [1, 2, 3])).toBeNull();
    expect(fmtSteal(null)).toBe("");
  });

  it("hands back what the measured work returned", async () => {
    const { value } = await withCpuSplit(async () => 42);
    expect(value).toBe(42);
  });
});
