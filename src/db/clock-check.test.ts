import { describe, expect, it } from "vitest";
import { clockProblem, judgeClock, type ClockState } from "./clock-check.js";

const UNKNOWN: ClockState = { kind: "unknown" };
const IN_STEP: ClockState = { kind: "in_step", offsetMs: 3 };
const SKEWED: ClockState = { kind: "skewed", offsetMs: -40_000 };

describe("judging the clock against the database's", () => {
  it("is in step when the whole span the round trip leaves open is within the tolerance", () => {
    expect(judgeClock(UNKNOWN, { offsetMs: 1_500, uncertaintyMs: 400 }, 2_000)).toEqual({ kind: "in_step", offsetMs: 1_500 });
    expect(judgeClock(SKEWED, { offsetMs: -2_000, uncertaintyMs: 0 }, 2_000)).toEqual({ kind: "in_step", offsetMs: -2_000 });
  });

  it("is skewed when even the least the offset can be is over the tolerance, either way", () => {
    expect(judgeClock(IN_STEP, { offsetMs: 2_600, uncertaintyMs: 500 }, 2_000)).toEqual({ kind: "skewed", offsetMs: 2_600 });
    expect(judgeClock(IN_STEP, { offsetMs: -40_000, uncertaintyMs: 5 }, 2_000)).toEqual({ kind: "skewed", offsetMs: -40_000 });
  });

  it("keeps the last clear state when a slow round trip cannot tell", () => {
    const reading = { offsetMs: 2_100, uncertaintyMs: 300 };
    expect(judgeClock(IN_STEP, reading, 2_000)).toBe(IN_STEP);
    expect(judgeClock(SKEWED, reading, 2_000)).toBe(SKEWED);
    // Before any clear reading, a process does not decide.
    expect(judgeClock(UNKNOWN, { offsetMs: 0, uncertaintyMs: 5_000 }, 2_000)).toBe(UNKNOWN);
  });

  it("says which way the clock is off, and by how much", () => {
    expect(clockProblem(IN_STEP, 2_000)).toBeNull();
    expect(clockProblem(UNKNOWN, 2_000)).toMatch(/not yet been compared/);
    expect(clockProblem(SKEWED, 2_000)).toMatch(/^this process's clock is 40\.0 s ahead of the database's \(at most 2 s allowed/);
    expect(clockProblem({ kind: "skewed", offsetMs: 90_000 }, 2_000)).toMatch(/90\.0 s behind the database's/);
  });
});
