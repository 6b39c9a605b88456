/**
 * Reviews in the policy bundle (docs/interface.md section 9): what the loader accepts and refuses, and
 * how a met requirement changes evaluation.
 */
import { describe, expect, it } from "vitest";
import { assess, situationOf } from "../../../src/core/assess.js";
import { bundleFromFiles } from "../../../src/policy/load.js";
import type { PolicyBundle } from "../../../src/core/policy/types.js";
import { reviewFacts, statedReviewFacts } from "../../../src/review/facts.js";
import type { AddressBookView } from "../../../src/core/addressbook/types.js";
import { tx as parsedTx } from "../../../src/core/facts/test-views.js";

const policy = (reviewers: string, ruleReview: string, decision = "defer") => `
version: "r.1"
default: deny
${reviewers}
rules:
  - id: large
    decision: ${decision}
    reason: large transfers wait
    ${ruleReview}
    when: {">": [{"var": "transfer.amount"}, "5"]}
  - id: internal
    decision: allow
    when: {"var": "transfer.destination.internal"}
`;

const GROUP = `reviewers:
  ops:
    - Alice@Example.com
    - {identity: bob@example.com, user: users/b0b}
    - carol@example.com`;

function load(text: string) {
  return bundleFromFiles("mem", [{ path: "policy.yaml", bytes: Buffer.from(text) }]);
}

function loaded(text: string): PolicyBundle {
  const r = load(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

function problems(text: string): string[] {
  const r = load(text);
  if (r.ok) return [];
  return r.error.problems.map((p) => `${p.path ?? ""}: ${p.message}`);
}

describe("review fields in the bundle", () => {
  it("loads reviewer groups (identities lower-cased) and a defer rule's review", () => {
    const bundle = loaded(policy(GROUP, "review: {group: ops, quorum: 2, expiresAfter: 24h}"));
    expect(bundle.reviewers).toEqual({
      ops: [
        { identity: "alice@example.com", user: null },
        { identity: "bob@example.com", user: "users/b0b" },
        { identity: "carol@example.com", user: null },
      ],
    });
    expect(bundle.rules[0]!.review).toEqual({ group: "ops", quorum: 2, expiresAfter: "24h", expiresAfterSeconds: 86400 });
    expect(bundle.rules[1]!.review).toBeUndefined();
  });

  it.each([
    ["a review on an allow rule", policy(GROUP, "review: {group: ops, quorum: 1, expiresAfter: 1h}", "allow"), "review is accepted on defer rules only"],
    ["a review on a deny rule", policy(GROUP, "review: {group: ops, quorum: 1, expiresAfter: 1h}", "deny"), "review is accepted on defer rules only"],
    ["an unknown group", policy(GROUP, "review: {group: opz, quorum: 1, expiresAfter: 1h}"), 'no reviewer group "opz"'],
    ["a quorum larger than the group", policy(GROUP, "review: {group: ops, quorum: 4, expiresAfter: 1h}"), "quorum 4 is more than the 3 members"],
    ["a quorum of 0", policy(GROUP, "review: {group: ops, quorum: 0, expiresAfter: 1h}"), "quorum is at least 1"],
    ["a fractional quorum", policy(GROUP, "review: {group: ops, quorum: 1.5, expiresAfter: 1h}"), "quorum is a whole number"],
    ["a bad expiry", policy(GROUP, "review: {group: ops, quorum: 1, expiresAfter: tomorrow}"), "expiresAfter is a positive whole number"],
    ["an expiry past ten years", policy(GROUP, "review: {group: ops, quorum: 1, expiresAfter: 999999999d}"), "at most 3660d"],
    ["an unknown key in review", policy(GROUP, "review: {group: ops, quorum: 1, expiresAfter: 1h, quroum: 2}"), 'unknown key "quroum"'],
    ["a missing group", policy(GROUP, "review: {quorum: 1, expiresAfter: 1h}"), "required"],
    ["an empty group", policy("reviewers:\n  ops: []", "review: {group: ops, quorum: 1, expiresAfter: 1h}"), "needs at least one member"],
    ["a member listed twice (case-insensitively)", policy("reviewers:\n  ops: [a@x.io, A@X.io]", "review: {group: ops, quorum: 1, expiresAfter: 1h}"), "a@x.io is listed twice"],
    [
      "a member with a bad user",
      policy("reviewers:\n  ops: [{identity: a@x.io, user: alice}]", "review: {group: ops, quorum: 1, expiresAfter: 1h}"),
      "user is a platform user name",
    ],
    ["a review without any reviewers", policy("", "review: {group: ops, quorum: 1, expiresAfter: 1h}"), 'no reviewer group "ops"'],
  ])("refuses %s, naming the path", (_what, text, message) => {
    const found = problems(text);
    expect(
      found.some((p) => p.includes(message)),
      found.join("\n"),
    ).toBe(true);
  });
});

describe("evaluation with a review", () => {
  const bundle = loaded(policy(GROUP, "review: {group: ops, quorum: 2, expiresAfter: 24h}"));
  const tx = parsedTx({
    name: "vaults/v1/transactions/t1",
    request: { initiator: "users/b0b" },
    details: { assetTransfer: { asset: "assets/native.ethereum-mainnet", amount: "10", source: "vaults/v1/wallets/a", destination: "vaults/v1/wallets/b" } },
  });
  const noSync: AddressBookView = { configured: false, vault: tx.vault, syncedAt: null, entries: [], ownAddresses: [] };
  const decide = (review?: ReturnType<typeof reviewFacts>) => {
    const situation = situationOf(tx, new Date("2026-11-22T12:00:00Z"), noSync);
    if (review) situation.review = review;
    return assess(bundle, situation, new Map());
  };

  it("defers with no review, and the facts say review.state none", () => {
    const outcome = decide();
    expect(outcome.decision).toBe("defer");
    expect(outcome.facts[0]!.review).toEqual({ state: "none", approvals: 0, approvers: [] });
  });

  it("a met requirement counts as not matched: the other rules decide", () => {
    const outcome = decide(
      reviewFacts(
        bundle,
        "open",
        [
          { identity: "alice@example.com", group: "ops" },
          { identity: "carol@example.com", group: "ops" },
        ],
        tx.initiator,
      ),
    );
    expect(outcome.decision).toBe("allow");
    expect(outcome.matched.map((m) => m.rule)).toEqual(["internal"]);
    expect(outcome.facts[0]!.review).toEqual({ state: "open", approvals: 2, approvers: ["alice@example.com", "carol@example.com"] });
  });

  it("the initiator's approval and a non-member's do not count", () => {
    const facts = statedReviewFacts(bundle, ["ALICE@example.com", "bob@example.com", "mallory@example.com"], tx.initiator);
    expect(facts).toEqual({ state: "open", approvals: 1, approvers: ["alice@example.com"] });
    expect(decide(facts).decision).toBe("defer");
  });

  it("a rejected or expired review's approvals never lift the rule", () => {
    const approvals = [
      { identity: "alice@example.com", group: "ops" },
      { identity: "carol@example.com", group: "ops" },
    ];
    expect(decide(reviewFacts(bundle, "rejected", approvals, null)).decision).toBe("defer");
    expect(decide(reviewFacts(bundle, "expired", approvals, null)).decision).toBe("defer");
  });
});
