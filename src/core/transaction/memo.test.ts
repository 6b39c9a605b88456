import { describe, expect, it } from "vitest";
import { statedMemo } from "./memo.js";

describe("statedMemo: the memo a body states, for tx.memo", () => {
  it.each([
    ["none", { name: "x" }, null],
    ["Stellar, shape 2", { stellarTransaction: { memo: { type: "text", data: "deposit 991" } } }, { type: "TEXT", data: "deposit 991" }],
    ["Stellar, shape 1 options", { details: { assetTransfer: { stellarOptions: { memo: { type: "ID", data: "7" } } } } }, { type: "ID", data: "7" }],
    ["a return memo as 0x and lower-case hex", { stellarTransaction: { memo: { type: "RETURN", data: "0xABCD" } } }, { type: "RETURN", data: "0xabcd" }],
    ["TON's text", { tonTransaction: { memo: "user 42" } }, { type: "TEXT", data: "user 42" }],
    ["TON's empty text", { tonTransaction: { memo: "" } }, null],
  ])("%s", (_what, snapshot, memo) => {
    expect(statedMemo(snapshot, "")).toEqual({ ok: true, value: memo });
  });

  it.each([
    ["an unknown type", { stellarTransaction: { memo: { type: "NOTE", data: "x" } } }, "stellarTransaction.memo"],
    ["no data", { details: { assetTransfer: { stellarOptions: { memo: { type: "ID" } } } } }, "details.assetTransfer.stellarOptions.memo"],
    ["TON's memo as a number", { tonTransaction: { memo: 7 } }, "tonTransaction.memo"],
  ])("refuses %s at its path", (_what, snapshot, path) => {
    const result = statedMemo(snapshot, "");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.publicMessage.startsWith(`${path}: `)).toBe(true);
  });
});
