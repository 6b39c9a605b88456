import { describe, expect, it } from "vitest";
import type { Facts } from "../core/facts/types.js";
import type { PolicyBundle, Rule } from "../core/policy/types.js";
import { reviewFacts } from "./facts.js";
import { reviewMet } from "../core/review/requirement.js";
import { reviewStatus } from "./state.js";
import type { ReviewAction, StoredReview } from "./store.js";

// Erin and Frank are one platform user (the ops desk's shared account); Gina and Henry are themselves.
const bundle = {
  reviewers: {
    ops: [
      { identity: "erin@example.com", user: "users/ops-desk" },
      { identity: "frank@example.com", user: "users/ops-desk" },
      { identity: "gina@example.com", user: null },
      { identity: "henry@example.com", user: null },
    ],
  },
};
const rule = { id: "big", decision: "defer", reason: null, when: true, review: { group: "ops", quorum: 2, expiresAfter: "1h", expiresAfterSeconds: 3600 } } as Rule;
const OPENED = new Date("2026-11-24T10:00:00Z");
const review: StoredReview = {
  id: "r1",
  transactionName: "vaults/v/transactions/t",
  vault: "vaults/v",
  contentDigest: "d",
  openedAt: OPENED,
  expiresAt: new Date(OPENED.getTime() + 3600_000),
  openedBy: "decision-1",
  initiator: null,
  requirements: [{ rule: "big", group: "ops", quorum: 2, expiresAfter: "1h" }],
  explanation: {},
};
const approval = (identity: string, minute: number): ReviewAction => ({
  id: identity,
  at: new Date(OPENED.getTime() + minute * 60_000),
  transactionName: review.transactionName,
  contentDigest: "d",
  identity,
  action: "approved",
  group: "ops",
  comment: null,
});

/** Whether the policy's evaluation would count the requirement met, from the same approvals. */
function policyMet(approvals: ReviewAction[]): boolean {
  const facts = {
    tx: { initiator: null },
    review: reviewFacts(
      { ...bundle, rules: [rule] } as unknown as PolicyBundle,
      "open",
      approvals.map((a) => ({ identity: a.identity!, group: "ops" })),
      null,
    ),
  } as unknown as Facts;
  return reviewMet({ ...bundle, rules: [rule] } as unknown as PolicyBundle, rule, facts);
}

describe("a review's state counts approvals as the policy does", () => {
  it("stays open while the worst-case initiator could be two approvers, so it is never approved with the transfer still deferred", () => {
    const three = [approval("erin@example.com", 1), approval("frank@example.com", 2), approval("gina@example.com", 3)];
    const now = new Date(OPENED.getTime() + 10 * 60_000);
    expect(reviewStatus(review, three, now, bundle).state).toBe("open");
    expect(policyMet(three)).toBe(false);
    const four = [...three, approval("henry@example.com", 4)];
    expect(reviewStatus(review, four, now, bundle).state).toBe("approved");
    expect(policyMet(four)).toBe(true);
  });

  it("agrees with the policy on every subset of approvals", () => {
    const everyone = ["erin@example.com", "frank@example.com", "gina@example.com", "henry@example.com"].map((identity, i) => approval(identity, i + 1));
    const now = new Date(OPENED.getTime() + 10 * 60_000);
    for (let mask = 0; mask < 16; mask++) {
      const some = everyone.filter((_, i) => mask & (1 << i));
      expect(reviewStatus(review, some, now, bundle).state === "approved", `approvals ${some.map((a) => a.identity).join(", ")}`).toBe(policyMet(some));
    }
  });

  it("keeps a recorded rejection or expiry when a later bundle would count the earlier approvals as enough", () => {
    const three = [approval("erin@example.com", 1), approval("frank@example.com", 2), approval("gina@example.com", 3)];
    const rejected: ReviewAction = { ...approval("henry@example.com", 4), id: "rejection", action: "rejected", comment: "not on the payout calendar" };
    const expired: ReviewAction = { ...approval("henry@example.com", 61), id: "expiry", identity: null, action: "expired", group: null };
    // Frank gets an account of his own: the three approvals would now meet the quorum.
    const reloaded = { reviewers: { ops: bundle.reviewers.ops.map((m) => (m.identity === "frank@example.com" ? { ...m, user: null } : m)) } };
    const now = new Date(OPENED.getTime() + 10 * 60_000);
    expect(reviewStatus(review, three, now, reloaded).state).toBe("approved");
    expect(reviewStatus(review, [...three, rejected], now, reloaded)).toMatchObject({ state: "rejected", rejection: rejected, approvals: three });
    const later = new Date(OPENED.getTime() + 2 * 3600_000);
    expect(reviewStatus(review, [...three, expired], later, reloaded)).toMatchObject({ state: "expired", rejection: null, expiryUnrecorded: false });
  });

  it("past its expiry, with none recorded, is approved only if its approvals met the groups it recorded when it opened too", () => {
    const opened: StoredReview = { ...review, requirements: [{ ...review.requirements[0]!, members: bundle.reviewers.ops }] };
    const three = [approval("erin@example.com", 1), approval("frank@example.com", 2), approval("gina@example.com", 3)];
    const reloaded = { reviewers: { ops: bundle.reviewers.ops.map((m) => (m.identity === "frank@example.com" ? { ...m, user: null } : m)) } };
    const before = new Date(OPENED.getTime() + 10 * 60_000);
    const after = new Date(OPENED.getTime() + 2 * 3600_000);
    // Before the expiry the bundle in force counts; after it, a bundle loaded since cannot approve after the fact.
    expect(reviewStatus(opened, three, before, reloaded).state).toBe("approved");
    expect(reviewStatus(opened, three, after, reloaded)).toMatchObject({ state: "expired", expiryUnrecorded: true });
    // Met under both: approved in time, whenever the delivery comes.
    const four = [...three, approval("henry@example.com", 4)];
    expect(reviewStatus(opened, four, after, reloaded).state).toBe("approved");
    // A review opened before the groups were recorded counts under the bundle in force.
    expect(reviewStatus(review, three, after, reloaded).state).toBe("approved");
  });

  it("stays open while the bundle in force asks the requirement's rule for more approvals than when it opened, as the policy keeps deferring", () => {
    const four = ["erin@example.com", "frank@example.com", "gina@example.com", "henry@example.com"].map((identity, i) => approval(identity, i + 1));
    const now = new Date(OPENED.getTime() + 10 * 60_000);
    const raised = { ...bundle, rules: [{ ...rule, review: { ...rule.review!, quorum: 3 } }] };
    expect(reviewStatus(review, four, now, { ...bundle, rules: [rule] }).state).toBe("approved");
    expect(reviewStatus(review, four, now, raised).state).toBe("open");
  });
});
