import { describe, expect, it } from "vitest";
import type { Facts } from "../facts/types.js";
import { evaluate } from "./evaluate.js";
import type { PolicyBundle, Rule } from "./types.js";

function bundle(rules: Omit<Rule, "reason">[]): PolicyBundle {
  return {
    version: "trace.1",
    description: null,
    default: "deny",
    windows: [],
    rules: rules.map((r) => ({ ...r, reason: null })),
    digest: "0".repeat(64),
    directory: "(memory)",
  };
}

function facts(amountAfter: string | null): Facts {
  return {
    now: "2026-11-21T12:00:00Z",
    nowHour: 12,
    nowWeekday: 6,
    tx: {
      name: "vaults/v1/transactions/t1",
      vault: "vaults/v1",
      id: "t1",
      kind: "assetTransfer",
      type: null,
      subType: null,
      state: null,
      network: null,
      note: null,
      externalId: null,
      requestId: null,
      initiator: null,
      designatedSigners: ["a", "b"],
      transferCount: 1,
      payloads: [],
      tokenAllowances: [],
      authorizations: [],
      memo: null,
      fee: null,
      usd: null,
      feeUsd: null,
    },
    transfer: {
      index: 0,
      network: "ethereum-mainnet",
      asset: "assets/native.ethereum-mainnet",
      assetAsGiven: "assets/native.ethereum-mainnet",
      assetStandard: "native",
      amount: "500",
      rawAmount: null,
      assetTotal: "500",
      usdPrice: null,
      usd: null,
      source: { value: "vaults/v1/wallets/w1", kind: "wallet", wallet: "vaults/v1/wallets/w1", address: null, internal: true, muxedId: null, baseAccount: null },
      destination: {
        value: "0x1111111111111111111111111111111111111111",
        kind: "address",
        wallet: null,
        address: "0x1111111111111111111111111111111111111111",
        internal: false,
        muxedId: null,
        baseAccount: "0x1111111111111111111111111111111111111111",
        inAddressBook: true,
        addressBook: null,
      },
      sponsor: null,
    },
    velocity: { daily_out: { amount: "120000", count: 3, amountAfter, countAfter: 4 } },
    addressBook: { configured: true, syncedAt: "2026-11-21T11:59:00Z", ageSeconds: 60 },
  };
}

const DAILY = { id: "daily-limit", decision: "deny" as const, when: { ">": [{ var: "velocity.daily_out.amountAfter" }, "100000"] } };
const SMALL = { id: "small", decision: "allow" as const, when: { and: [{ var: "transfer.destination.inAddressBook" }, { "<=": [{ var: "transfer.amount" }, "1000"] }] } };

describe("explain with operand values", () => {
  it("shows every rule as matched or not, and each comparison with its operands' values", () => {
    const outcome = evaluate(bundle([DAILY, SMALL]), [facts("120500")], { trace: true });
    const rules = outcome.evaluations[0]!.rules!;
    expect(rules.map((r) => [r.rule, r.result])).toEqual([
      ["daily-limit", "matched"],
      ["small", "matched"],
    ]);
    expect(rules[0]!.comparisons).toEqual([
      {
        op: ">",
        operands: [{ from: "velocity.daily_out.amountAfter", value: "120500" }, { value: "100000" }],
        result: true,
        text: "velocity.daily_out.amountAfter = 120500 > 100000",
      },
    ]);
    expect(rules[1]!.comparisons[0]!.text).toBe("transfer.amount = 500 <= 1000");
  });

  it("says why a rule did not match: the comparison was false", () => {
    const outcome = evaluate(bundle([DAILY]), [facts("90000")], { trace: true });
    const [rule] = outcome.evaluations[0]!.rules!;
    expect(rule).toMatchObject({ rule: "daily-limit", result: "not matched", matched: false });
    expect(rule!.comparisons[0]).toMatchObject({ text: "velocity.daily_out.amountAfter = 90000 > 100000", result: false });
  });

  it("an error is a third state, with the operand that caused it and how the rule counted", () => {
    const outcome = evaluate(bundle([DAILY, { ...DAILY, id: "allow-under", decision: "allow" }]), [facts(null)], { trace: true });
    const [deny, allow] = outcome.evaluations[0]!.rules!;
    expect(deny).toMatchObject({ result: "error", matched: true });
    expect(allow).toMatchObject({ result: "error", matched: false });
    expect(deny!.error).toContain("null");
    expect(deny!.comparisons[0]).toMatchObject({ text: "velocity.daily_out.amountAfter = null > 100000", operands: [{ value: null }, { value: "100000" }] });
    expect(deny!.comparisons[0]!.error).toContain("null");
    expect(outcome.decision).toBe("deny");
  });

  it("records only the comparisons evaluation made (and short-circuits), naming computed operands by their expression", () => {
    const when = {
      or: [{ ">": [{ "-": [{ var: "velocity.daily_out.amountAfter" }, { var: "velocity.daily_out.amount" }] }, "100"] }, { "==": [{ var: "transfer.amount" }, "1"] }],
    };
    const outcome = evaluate(bundle([{ id: "r", decision: "deny", when }]), [facts("120500")], { trace: true });
    const [rule] = outcome.evaluations[0]!.rules!;
    expect(rule!.comparisons.map((c) => c.text)).toEqual(['{"-":[{"var":"velocity.daily_out.amountAfter"},{"var":"velocity.daily_out.amount"}]} = 500 > 100']);
  });

  it("comparisons inside some/all read each element, and record each", () => {
    const when = { some: [{ var: "tx.designatedSigners" }, { "==": [{ var: "" }, "b"] }] };
    const [rule] = evaluate(bundle([{ id: "r", decision: "deny", when }]), [facts("1")], { trace: true }).evaluations[0]!.rules!;
    expect(rule!.comparisons.map((c) => [c.text, c.result])).toEqual([
      ['"a" == "b"', false],
      ['"b" == "b"', true],
    ]);
  });

  it("the traced evaluation decides exactly as the plain one", () => {
    const b = bundle([DAILY, SMALL, { id: "err", decision: "defer", when: { "<": [{ var: "nope" }, 1] } }]);
    for (const f of [facts("120500"), facts("100"), facts(null)]) {
      const { evaluations: traced, ...tracedRest } = evaluate(b, [f], { trace: true });
      const { evaluations: plain, ...plainRest } = evaluate(b, [f]);
      expect(tracedRest).toEqual(plainRest);
      expect(traced.map(({ rules: _rules, ...e }) => e)).toEqual(plain);
      expect(plain[0]!.rules).toBeUndefined();
    }
  });

  it("a defer rule whose review requirement is met shows as not matched, with its comparison", () => {
    const review = { group: "treasury", quorum: 1, expiresAfter: "24h", expiresAfterSeconds: 86400 };
    const b: PolicyBundle = {
      ...bundle([{ id: "big", decision: "defer", when: { ">": [{ var: "transfer.amount" }, "100"] } }]),
      rules: [{ id: "big", decision: "defer", reason: null, when: { ">": [{ var: "transfer.amount" }, "100"] }, review }],
      reviewers: { treasury: [{ identity: "alice@example.com", user: "users/a11ce" }] },
    };
    // An initiator the body names, who is not alice: her user is declared, so she is certainly not
    // them (with none named, or her user undeclared, one approval more would be needed).
    const initiated = facts("1");
    const f = { ...initiated, tx: { ...initiated.tx, initiator: "users/ops@example.com" }, review: { state: "open" as const, approvals: 1, approvers: ["alice@example.com"] } };
    const outcome = evaluate(b, [f], { trace: true });
    expect(outcome.matched).toEqual([]);
    expect(outcome.evaluations[0]!.rules![0]).toMatchObject({
      result: "not matched",
      matched: false,
      reviewMet: true,
      comparisons: [{ text: "transfer.amount = 500 > 100", result: true }],
    });
  });
});
