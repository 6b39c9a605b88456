/**
 * The review's part in the decision path (docs/interface.md section 9), applied by src/decision/decide.ts
 * to what it read under the transaction name's lock, its writes joining the decision's own:
 *
 * - before evaluation, `reviewGate`: a review of other content is a conflicting snapshot; a
 *   rejected or expired review denies; otherwise its valid approvals become the `review.*` facts;
 * - after a deferring evaluation, `openReview`: the first defer by a rule that asks for review
 *   opens the review (once per name and content digest).
 */
import { randomUUID } from "node:crypto";
import type { Db } from "../database.js";
import type { Outcome, PolicyBundle } from "../core/policy/types.js";
import type { Transaction } from "../core/transaction/types.js";
import { explain } from "./explanation.js";
import { reviewFacts } from "./facts.js";
import { initiatorNote, needs } from "./needs.js";
import { groupMembers } from "../core/review/requirement.js";
import { expiryInForce, reviewStatus } from "./state.js";
import { insertActions, type Requirement, type ReviewAction, type StoredReview } from "./store.js";
import { NO_REVIEW, type ReviewFacts } from "../core/review/types.js";

export const REVIEW_EXPIRED = "review expired";
export const rejectedReason = (identity: string, comment: string) => `rejected in review by ${identity}: ${comment}`;

export type ReviewGate =
  | { kind: "conflict"; review: StoredReview }
  /** `expiry`: the expired action to record with the denial, when none is recorded yet. */
  | { kind: "deny"; reason: string; expiry?: ReviewAction }
  | { kind: "evaluate"; facts: ReviewFacts; review: StoredReview | null };

/** The gate for the name's review (read under its lock) and that review's actions on its content. */
export function reviewGate(review: StoredReview | undefined, actions: readonly ReviewAction[], bundle: PolicyBundle, tx: Transaction, digest: string, now: Date): ReviewGate {
  if (!review) return { kind: "evaluate", facts: NO_REVIEW, review: null };
  if (review.contentDigest !== digest) return { kind: "conflict", review };
  const status = reviewStatus(review, actions, now, bundle);
  if (status.state === "rejected" && status.rejection) {
    return { kind: "deny", reason: rejectedReason(status.rejection.identity ?? "", status.rejection.comment ?? "") };
  }
  if (status.state === "expired") {
    return { kind: "deny", reason: REVIEW_EXPIRED, ...(status.expiryUnrecorded ? { expiry: expiryAction(review, now) } : {}) };
  }
  const approvals = status.approvals.map((a) => ({ identity: a.identity ?? "", group: a.group ?? "" }));
  return { kind: "evaluate", facts: reviewFacts(bundle, status.state, approvals, tx.initiator), review };
}

function expiryAction(review: StoredReview, now: Date): ReviewAction {
  return { id: randomUUID(), at: now, transactionName: review.transactionName, contentDigest: review.contentDigest, identity: null, action: "expired", group: null, comment: null };
}

/**
 * The expiry to record when a delivery past the review's expiry is still deferred by a rule that
 * asks for review, whatever the review's state reads (approvals counted under an earlier bundle, a
 * rule renamed or added since): docs/interface.md's "not approved within expiresAfter", denied as expired.
 * Without it such a transfer would be deferred at every poll, for good.
 */
export function expiredWhileDeferred(review: StoredReview | null, bundle: PolicyBundle, outcome: Pick<Outcome, "decision" | "matched">, now: Date): ReviewAction | null {
  if (review === null || now.getTime() < expiryInForce(review, bundle).getTime()) return null;
  return requirementsOf(bundle, outcome).length > 0 ? expiryAction(review, now) : null;
}

export async function recordExpiry(trx: Db, review: StoredReview, now: Date): Promise<void> {
  await insertActions(trx, [expiryAction(review, now)]);
}

/** The defer rules that matched and ask for review: the requirements of a review opened now. */
export function requirementsOf(bundle: PolicyBundle, outcome: Pick<Outcome, "decision" | "matched">): Requirement[] {
  if (outcome.decision !== "defer") return [];
  const matched = new Set(outcome.matched.filter((m) => m.decision === "defer").map((m) => m.rule));
  return bundle.rules.flatMap((rule) =>
    rule.review && matched.has(rule.id)
      ? [{ rule: rule.id, group: rule.review.group, quorum: rule.review.quorum, expiresAfter: rule.review.expiresAfter, members: groupMembers(bundle, rule.review.group) }]
      : [],
  );
}

export interface OpeningDelivery {
  bundle: PolicyBundle;
  tx: Transaction;
  digest: string;
  now: Date;
  outcome: Pick<Outcome, "decision" | "matched" | "facts" | "reasons">;
  decisionId: string;
}

/** The review this deferring delivery opens, with its "opened" actions, or null when none is needed. */
export function reviewOpening(d: OpeningDelivery): { review: StoredReview; actions: ReviewAction[] } | null {
  const requirements = requirementsOf(d.bundle, d.outcome);
  if (requirements.length === 0) return null;
  const shortest = Math.min(...requirements.map((r) => d.bundle.rules.find((rule) => rule.id === r.rule)!.review!.expiresAfterSeconds));
  const review: StoredReview = {
    id: randomUUID(),
    transactionName: d.tx.name,
    vault: d.tx.vault,
    contentDigest: d.digest,
    openedAt: d.now,
    expiresAt: new Date(d.now.getTime() + shortest * 1000),
    openedBy: d.decisionId,
    initiator: d.tx.initiator,
    requirements,
    explanation: explain(d.bundle, d.outcome),
  };
  const actions = [...new Set(requirements.map((r) => r.group))].map((group) => ({
    id: randomUUID(),
    at: d.now,
    transactionName: review.transactionName,
    contentDigest: review.contentDigest,
    identity: null,
    action: "opened" as const,
    group,
    comment:
      requirements
        .filter((r) => r.group === group)
        .map((r) => `${r.rule}: ${needs(d.bundle, r.group, r.quorum, d.tx.initiator)}`)
        .join("; ") + initiatorNote(d.bundle, group, d.tx.initiator),
  }));
  return { review, actions };
}
