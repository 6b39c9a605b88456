import { describe, expect, it } from "vitest";
import { DeadlinePassed, withinDeadline } from "./deadline.js";

describe("withinDeadline", () => {
  it("resolves with the work's value when it finishes in time", async () => {
    expect(await withinDeadline(1_000, performance.now(), () => Promise.resolve(7))).toEqual({ done: true, value: 7 });
  });

  it("rejects with the work's own failure before the deadline", async () => {
    await expect(withinDeadline(60_000, performance.now(), () => Promise.reject(new Error("broken")))).rejects.toThrow("broken");
  });

  it("a deadline the work notices before the timer runs is the deadline passing, not a failure", async () => {
    // Started long enough ago that the deadline is behind us: the work's own check throws
    // DeadlinePassed in a microtask, ahead of the timer's macrotask (a busy loop runs timers late).
    const result = await withinDeadline(100, performance.now() - 500, async (deadline) => {
      deadline.check();
      return "signed";
    });
    expect(result).toEqual({ done: false, budgetMs: 100 });
  });

  it("a connection destroyed at the deadline fails the work after it: still the deadline passing", async () => {
    const result = await withinDeadline(100, performance.now() - 500, async (deadline) => {
      await new Promise<void>((_, reject) => deadline.onExpire(() => reject(new Error("connection destroyed"))));
    });
    expect(result).toEqual({ done: false, budgetMs: 100 });
  });

  it("DeadlinePassed names the budget", () => {
    expect(new DeadlinePassed(250).message).toContain("250 ms");
  });
});
