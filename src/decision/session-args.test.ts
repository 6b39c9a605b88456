import { describe, expect, it } from "vitest";
import type { DecisionRow } from "../audit/decision-rows.js";
import { groupHashHex, groupLockId } from "../velocity/group-hash.js";
import { windowTotalId, type WindowQuery } from "../core/facts/window-query.js";
import type { ReadResult } from "./session-types.js";
import { readArgs, totalsRead, writeArgs } from "./session-args.js";

const queries: WindowQuery[] = [
  { window: "daily", key: "wallet-a", durationSeconds: 86_400 },
  { window: "hourly", key: "wallet-a", durationSeconds: 3_600 },
];

function read(ords: number[] | null, amounts: string[] | null, counts: string[] | null, usds: string[] | null = counts && counts.map(() => "0")): ReadResult {
  return { final: null, review: null, actions: null, failure: null, total_ords: ords, total_amounts: amounts, total_counts: counts, total_usds: usds };
}

describe("totalsRead", () => {
  it("adds up each window's pieces, exactly", () => {
    const totals = totalsRead(read([0, 0, 1, 0], ["0.1", "0.2", "5", "1000000000000000000.000001"], ["1", "2", "3", "4"], ["0.01", "0.02", "7", "0"]), queries);
    expect(totals.get(windowTotalId("daily", "wallet-a"))).toEqual({ amount: "1000000000000000000.300001", count: 7, usd: "0.03" });
    expect(totals.get(windowTotalId("hourly", "wallet-a"))).toEqual({ amount: "5", count: 3, usd: "7" });
  });

  it("refuses a read that left a window out, instead of counting it as empty", () => {
    expect(() => totalsRead(read([0], ["1"], ["1"]), queries)).toThrow(/no total for window hourly/);
    expect(() => totalsRead(read(null, null, null), queries)).toThrow(/no total for window daily/);
  });

  it("refuses a corrupt piece", () => {
    expect(() => totalsRead(read([0, 1], ["1", "x"], ["1", "1"]), queries)).toThrow();
    expect(() => totalsRead(read([0, 1], ["1"], ["1", "1"]), queries)).toThrow();
    expect(() => totalsRead(read([0, 1], ["1", "1"], ["1", "1"], ["1"]), queries)).toThrow();
  });

  it("no window queries, no totals", () => {
    expect(totalsRead(read(null, null, null), []).size).toBe(0);
  });
});

describe("the group hashes the two calls send", () => {
  it("lock ids are each lock key's, ascending and once each, whether or not a window query shares the key", () => {
    const args = readArgs("vaults/v/transactions/t", ["wallet-a", "wallet-z", "wallet-a"], queries, new Date("2026-11-24T12:00:00Z"), true);
    const ids = [groupLockId("wallet-a"), groupLockId("wallet-z")].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    expect(args.locks).toBe(`{${ids.join(",")}}`);
    expect(args.hashes).toEqual([groupHashHex("wallet-a"), groupHashHex("wallet-a")]);
  });

  it("each charge carries its group's hash, and each group is written once", () => {
    const row = {
      id: "00000000-0000-4000-8000-000000000000",
      decidedAt: new Date(0),
      transactionName: "t",
      vault: "v",
      decision: "allow",
      httpStatus: 200,
      replayed: false,
      replayOf: null,
      policyVersion: "p",
      policyDigest: "d",
      matchedRules: [],
      reasons: [],
      facts: [],
      transaction: {},
      contentDigest: "c",
      requestId: "r",
      durationMs: 1,
    } as DecisionRow;
    const charges = [
      { transferIndex: 0, key: "wallet-a", amount: "1", usd: "3000.5" },
      { transferIndex: 1, key: "wallet-b", amount: null, usd: null },
      { transferIndex: 2, key: "wallet-a", amount: "2.5", usd: null },
    ];
    const args = writeArgs({ decision: row, charges });
    expect(args.charges).toEqual(charges.map((c) => ({ transfer_index: c.transferIndex, hash: groupHashHex(c.key), amount: c.amount, usd: c.usd, asset: null })));
    expect(args.groups).toEqual([
      { hash: groupHashHex("wallet-a"), key: "wallet-a" },
      { hash: groupHashHex("wallet-b"), key: "wallet-b" },
    ]);
  });
});
