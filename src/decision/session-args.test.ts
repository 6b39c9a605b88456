import { describe, expect, it } from "vitest";
import { windowTotalId, type WindowQuery } from "../velocity/read.js";
import type { ReadResult } from "./session.js";
import { totalsRead } from "./session-args.js";

const queries: WindowQuery[] = [
  { window: "daily", key: "wallet-a", durationSeconds: 86_400 },
  { window: "hourly", key: "wallet-a", durationSeconds: 3_600 },
];

function read(ords: number[] | null, amounts: string[] | null, counts: string[] | null): ReadResult {
  return { final: null, review: null, actions: null, failure: null, total_ords: ords, total_amounts: amounts, total_counts: counts };
}

describe("totalsRead", () => {
  it("adds up each window's pieces, exactly", () => {
    const totals = totalsRead(read([0, 0, 1, 0], ["0.1", "0.2", "5", "1000000000000000000.000001"], ["1", "2", "3", "4"]), queries);
    expect(totals.get(windowTotalId("daily", "wallet-a"))).toEqual({ amount: "1000000000000000000.300001", count: 7 });
    expect(totals.get(windowTotalId("hourly", "wallet-a"))).toEqual({ amount: "5", count: 3 });
  });

  it("refuses a read that left a window out, instead of counting it as empty", () => {
    expect(() => totalsRead(read([0], ["1"], ["1"]), queries)).toThrow(/no total for window hourly/);
    expect(() => totalsRead(read(null, null, null), queries)).toThrow(/no total for window daily/);
  });

  it("refuses a corrupt piece", () => {
    expect(() => totalsRead(read([0, 1], ["1", "x"], ["1", "1"]), queries)).toThrow();
    expect(() => totalsRead(read([0, 1], ["1"], ["1", "1"]), queries)).toThrow();
  });

  it("no window queries, no totals", () => {
    expect(totalsRead(read(null, null, null), []).size).toBe(0);
  });
});
