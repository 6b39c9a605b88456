import { describe, expect, it } from "vitest";
import type { Facts, TransferFacts } from "../facts/types.js";
import { evaluate, evaluateFacts } from "./evaluate.js";
import { bundleFromFiles } from "../../policy/load.js";
import type { DefaultDecision, PolicyBundle, RuleDecision } from "./types.js";

type RuleSpec = [id: string, decision: RuleDecision, when: unknown, reason?: string];

function bundle(rules: RuleSpec[], defaultDecision: DefaultDecision = "deny"): PolicyBundle {
  return {
    version: "test",
    description: null,
    default: defaultDecision,
    windows: [],
    rules: rules.map(([id, decision, when, reason]) => ({ id, decision, when, reason: reason ?? null })),
    digest: "0".repeat(64),
    directory: "(memory)",
  };
}

function transfer(index: number, amount: string | null, inAddressBook = true): TransferFacts {
  const endpoint = {
    value: "0x1111111111111111111111111111111111111111",
    kind: "address" as const,
    wallet: null,
    address: "0x1111111111111111111111111111111111111111",
    internal: false,
    muxedId: null,
    baseAccount: "0x1111111111111111111111111111111111111111",
  };
  return {
    index,
    network: "ethereum-mainnet",
    asset: "assets/native.ethereum-mainnet",
    assetAsGiven: "assets/native.ethereum-mainnet",
    assetStandard: "native",
    amount,
    rawAmount: null,
    assetTotal: amount,
    usdPrice: null,
    usd: null,
    source: { ...endpoint, kind: "wallet", value: "vaults/v1/wallets/w1", wallet: "vaults/v1/wallets/w1", address: null, internal: true, muxedId: null, baseAccount: null },
    destination: { ...endpoint, inAddressBook, addressBook: null },
    sponsor: null,
  };
}

function facts(t: TransferFacts | null, kind: Facts["tx"]["kind"] = "assetTransfer"): Facts {
  return {
    now: "2026-11-21T12:00:00Z",
    nowHour: 12,
    nowWeekday: 6,
    tx: {
      name: "vaults/v1/transactions/t1",
      vault: "vaults/v1",
      id: "t1",
      kind,
      type: null,
      subType: null,
      state: null,
      network: null,
      note: null,
      externalId: null,
      requestId: null,
      initiator: null,
      designatedSigners: [],
      transferCount: t ? 1 : 0,
      payloads: [],
      tokenAllowances: [],
      authorizations: [],
      memo: null,
      fee: null,
      usd: null,
      feeUsd: null,
    },
    transfer: t,
    velocity: { daily_out: { amount: "4000", count: 3, amountAfter: "4500", countAfter: 4 } },
    addressBook: { configured: true, syncedAt: "2026-11-21T11:59:00Z", ageSeconds: 60 },
  };
}

const MISSING_COMPARISON = { "<": [{ var: "missing" }, 100] };
const AMOUNT_AT_MOST_1000 = { "<=": [{ var: "transfer.amount" }, "1000"] };

describe("a rule that fails to evaluate resolves to the safe side", () => {
  it("an allow rule does not allow; the default decides and the error is in the trace", () => {
    const outcome = evaluate(bundle([["small", "allow", MISSING_COMPARISON]]), [facts(transfer(0, "1"))]);
    expect(outcome.decision).toBe("deny");
    expect(outcome.matched).toEqual([]);
    expect(outcome.reasons).toEqual(["no rule allowed (default: deny)"]);
    const [trace] = outcome.evaluations;
    expect(trace).toMatchObject({ transfer: 0, decision: "deny", byDefault: true });
    expect(trace?.errors).toEqual([{ rule: "small", error: expect.stringMatching(/"<" got null/) }]);
  });

  it.each([["deny"], ["defer"]] as const)("a %s rule matches, with the error on the match and in the reasons", (decision) => {
    const outcome = evaluate(
      bundle([
        ["guard", decision, MISSING_COMPARISON, "Guard tripped"],
        ["ok", "allow", true],
      ]),
      [facts(transfer(0, "1"))],
    );
    expect(outcome.decision).toBe(decision);
    expect(outcome.matched).toEqual([
      { rule: "guard", decision, transfer: 0, error: expect.stringMatching(/"<" got null/) },
      { rule: "ok", decision: "allow", transfer: 0 },
    ]);
    expect(outcome.evaluations[0]?.errors).toHaveLength(1);
    expect(outcome.reasons).toEqual([expect.stringMatching(/^Guard tripped \(rule guard failed to evaluate: "<" got null/)]);
  });

  // A bundle built without the loader is refused by the evaluator too: "0" would be a true condition.
  it("an allow rule reading an arithmetic result as its condition does not allow", () => {
    const outcome = evaluate(bundle([["over-100", "allow", { "-": [{ var: "transfer.amount" }, "100"] }]]), [facts(transfer(0, "100"))]);
    expect(outcome.decision).toBe("deny");
    expect(outcome.evaluations[0]?.errors).toEqual([{ rule: "over-100", error: expect.stringMatching(/read here as true or false/) }]);
  });

  it("a non-numeric amount in a deny rule denies", () => {
    const outcome = evaluate(bundle([["big", "deny", { ">": [{ var: "transfer.amount" }, "1000"] }]]), [facts(transfer(0, "lots"))]);
    expect(outcome.decision).toBe("deny");
    expect(outcome.reasons).toEqual([expect.stringMatching(/^rule big failed to evaluate: ">" needs a number/)]);
  });
});

describe("one evaluation: deny > defer > allow > default", () => {
  it.each<[string, RuleDecision[], DefaultDecision, RuleDecision, boolean]>([
    ["nothing matched, default deny", [], "deny", "deny", true],
    ["nothing matched, default defer", [], "defer", "defer", true],
    ["allow only", ["allow"], "deny", "allow", false],
    ["allow beats a defer default", ["allow"], "defer", "allow", false],
    ["defer over allow", ["allow", "defer"], "deny", "defer", false],
    ["defer over a deny default", ["defer"], "deny", "defer", false],
    ["deny over allow", ["allow", "deny"], "defer", "deny", false],
    ["deny over defer and allow", ["deny", "defer", "allow"], "defer", "deny", false],
  ])("%s", (_name, matching, defaultDecision, expected, byDefault) => {
    const rules: RuleSpec[] = [
      ...matching.map((d, i): RuleSpec => [`m${i}`, d, { "==": [{ var: "tx.kind" }, "assetTransfer"] }]),
      ["never-allow", "allow", false],
      ["never-deny", "deny", { "!": true }],
      ["never-defer", "defer", []],
    ];
    const trace = evaluateFacts(bundle(rules, defaultDecision), facts(transfer(0, "1")));
    expect(trace.decision).toBe(expected);
    expect(trace.byDefault).toBe(byDefault);
    expect(trace.matched.map((m) => m.decision)).toEqual(matching);
  });
});

describe("the transaction: deny if any transfer denies, else defer if any defers, else allow", () => {
  const rules: RuleSpec[] = [
    ["small", "allow", AMOUNT_AT_MOST_1000, "Small transfer"],
    ["review", "defer", { ">": [{ var: "transfer.amount" }, "5000"] }, "Large transfer needs review"],
    ["blocked", "deny", { "!": { var: "transfer.destination.inAddressBook" } }, "Destination not in address book"],
  ];
  it.each<[string, TransferFacts[], RuleDecision, string[]]>([
    ["all small", [transfer(0, "10"), transfer(1, "1000")], "allow", ["Small transfer"]],
    ["one in between falls to the default", [transfer(0, "10"), transfer(1, "2000")], "deny", ["no rule allowed (default: deny)"]],
    ["one large defers", [transfer(0, "10"), transfer(1, "6000")], "defer", ["Large transfer needs review"]],
    ["a deny anywhere wins", [transfer(0, "6000"), transfer(1, "10", false)], "deny", ["Destination not in address book"]],
    ["a deny and a default deny both explain", [transfer(0, "2000"), transfer(1, "10", false)], "deny", ["Destination not in address book", "no rule allowed (default: deny)"]],
  ])("%s", (_name, transfers, expected, reasons) => {
    const outcome = evaluate(
      bundle(rules),
      transfers.map((t) => facts(t)),
    );
    expect(outcome.decision).toBe(expected);
    expect(outcome.reasons).toEqual(reasons);
    expect(outcome.evaluations.map((e) => e.transfer)).toEqual(transfers.map((t) => t.index));
  });

  it("lists every match across transfers with its transfer index", () => {
    const outcome = evaluate(bundle(rules), [facts(transfer(0, "10")), facts(transfer(1, "6000"))]);
    expect(outcome.matched).toEqual([
      { rule: "small", decision: "allow", transfer: 0 },
      { rule: "review", decision: "defer", transfer: 1 },
    ]);
  });

  it("deduplicates reasons and uses `rule <id>` where a rule has none, in rule order", () => {
    const outcome = evaluate(
      bundle([
        ["b", "deny", true],
        ["a", "deny", true, "Same"],
        ["c", "deny", true, "Same"],
      ]),
      [facts(transfer(0, "1")), facts(transfer(1, "1"))],
    );
    expect(outcome.reasons).toEqual(["rule b", "Same"]);
  });
});

describe("exact decimals at a limit", () => {
  it.each([
    ["exactly at the limit", "1000.000000000000000000", "allow"],
    ["one smallest unit above", "1000.000000000000000001", "deny"],
    ["one smallest unit below", "999.999999999999999999", "allow"],
  ])("%s", (_name, amount, expected) => {
    expect(evaluate(bundle([["limit", "allow", AMOUNT_AT_MOST_1000]]), [facts(transfer(0, amount))]).decision).toBe(expected);
  });

  it("compares numeric strings as numbers", () => {
    expect(evaluate(bundle([["gt", "allow", { ">": [{ var: "transfer.amount" }, "9"] }]]), [facts(transfer(0, "10"))]).decision).toBe("allow");
  });
});

describe("edge cases never allow by accident", () => {
  it("an empty facts array takes the default", () => {
    for (const d of ["deny", "defer"] as const) {
      const outcome = evaluate(bundle([["all", "allow", true]], d), []);
      expect(outcome.decision).toBe(d);
      expect(outcome.reasons).toEqual([`nothing to evaluate (default: ${d})`]);
    }
  });

  it("a hand-built bundle with default allow still denies when nothing matched", () => {
    const b = { ...bundle([]), default: "allow" } as unknown as PolicyBundle;
    expect(evaluate(b, [facts(null)]).decision).toBe("deny");
  });

  it("a transaction without transfers is evaluated once with transfer null", () => {
    const outcome = evaluate(bundle([["only-transfers", "deny", { "!": { in: [{ var: "tx.kind" }, ["assetTransfer", "stellarTransaction"]] } }, "Only asset transfers"]]), [
      facts(null, "evmAccountDelegation"),
    ]);
    expect(outcome.decision).toBe("deny");
    expect(outcome.matched).toEqual([{ rule: "only-transfers", decision: "deny", transfer: null }]);
    expect(outcome.reasons).toEqual(["Only asset transfers"]);
  });

  it("is a function of (bundle, facts): same inputs, same outcome, inputs untouched", () => {
    const b = bundle([
      ["small", "allow", AMOUNT_AT_MOST_1000],
      ["guard", "deny", MISSING_COMPARISON],
    ]);
    const input = [Object.freeze(facts(transfer(0, "5")))];
    const snapshot = structuredClone(input);
    const first = evaluate(b, input);
    expect(evaluate(b, input)).toEqual(first);
    expect(input).toEqual(snapshot);
    expect(first.facts).toEqual(snapshot);
  });
});

describe("the contract's example policy, loaded and evaluated", () => {
  const policy = `version: "2026-11-21.1"
default: deny
windows:
  - {name: daily_out, duration: 24h, groupBy: [sourceWallet, asset]}
rules:
  - id: only-transfers
    decision: deny
    reason: Only asset transfers are signed automatically
    when: {"!": {"in": [{"var": "tx.kind"}, ["assetTransfer", "stellarTransaction"]]}}
  - id: address-book-daily-limit
    decision: allow
    when:
      and:
        - {"var": "transfer.destination.inAddressBook"}
        - {"<=": [{"var": "transfer.amount"}, "1000"]}
        - {"<=": [{"var": "velocity.daily_out.amountAfter"}, "5000"]}
`;
  const loaded = bundleFromFiles("(memory)", [{ path: "policy.yaml", bytes: Buffer.from(policy) }]);
  if (!loaded.ok) throw loaded.error;
  const example = loaded.value;

  it.each<[string, Facts, RuleDecision, string[]]>([
    ["small transfer to an address-book entry", facts(transfer(0, "500")), "allow", ["rule address-book-daily-limit"]],
    ["over the per-transfer limit", facts(transfer(0, "1000.5")), "deny", ["no rule allowed (default: deny)"]],
    ["not in the address book", facts(transfer(0, "5", false)), "deny", ["no rule allowed (default: deny)"]],
    ["an account delegation", facts(null, "evmAccountDelegation"), "deny", ["Only asset transfers are signed automatically"]],
  ])("%s", (_name, f, expected, reasons) => {
    const outcome = evaluate(example, [f]);
    expect(outcome.decision).toBe(expected);
    expect(outcome.reasons).toEqual(reasons);
  });

  it("does not allow when the velocity fact is missing", () => {
    const f = { ...facts(transfer(0, "500")), velocity: {} };
    const outcome = evaluate(example, [f]);
    expect(outcome.decision).toBe("deny");
    expect(outcome.evaluations[0]?.errors).toEqual([{ rule: "address-book-daily-limit", error: expect.stringMatching(/"<=" got null/) }]);
  });
});
