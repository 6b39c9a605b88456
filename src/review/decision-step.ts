/**
 * The review's part in the decision path (CONTRACT.md section 9), called by src/decision/decide.ts
 * inside the database transaction that holds the transaction name's lock:
 *
 * - before evaluation, `reviewGate`: a review of other content is a conflicting snapshot; a
 *   rejected or expired review denies; otherwise its valid approvals become the `review.*` facts;
 * - after a deferring evaluation, `openReview`: the first defer by a rule that asks for review
 *   opens the review (once per name and content digest).
 */
import { randomUUID } from "node:crypto";
import type { Db } from "../db/connect.js";
import type { Outcome, PolicyBundle } from "../policy/types.js";
import type { Transaction } from "../transaction/types.js";
import { explain } from "./explanation.js";
import { reviewFacts } from "./facts.js";
import { reviewStatus } from "./state.js";
import { actionsOf, findReview, insertActions, insertReview, type Requirement, type StoredReview } from "./store.js";
import { NO_REVIEW, type ReviewFacts } from "./types.js";

export const REVIEW_EXPIRED = "review expired";
export const rejectedReason = (identity: string, comment: string) => `rejected in review by ${identity}: ${comment}`;

export type ReviewGate =
  | { kind: "conflict"; review: StoredReview }
  | { kind: "deny"; reason: string }
  | { kind: "evaluate"; facts: ReviewFacts; review: StoredReview | null };

export async function reviewGate(trx: Db, bundle: PolicyBundle, tx: Transaction, digest: string, now: Date): Promise<ReviewGate> {
  const review = await findReview(trx, tx.name);
  if (!review) return { kind: "evaluate", facts: NO_REVIEW, review: null };
  if (review.contentDigest !== digest) return { kind: "conflict", review };
  const status = reviewStatus(review, (await actionsOf(trx, [review])).get(tx.name) ?? [], now);
  if (status.state === "rejected" && status.rejection) {
    return { kind: "deny", reason: rejectedReason(status.rejection.identity ?? "", status.rejection.comment ?? "") };
  }
  if (status.state === "expired") {
    if (status.expiryUnrecorded) await recordExpiry(trx, review, now);
    return { kind: "deny", reason: REVIEW_EXPIRED };
  }
  const approvals = status.approvals.map((a) => ({ identity: a.identity ?? "", group: a.group ?? "" }));
  return { kind: "evaluate", facts: reviewFacts(bundle, status.state, approvals, tx.initiator), review };
}

export async function recordExpiry(trx: Db, review: StoredReview, now: Date): Promise<void> {
  await insertActions(trx, [
    { id: randomUUID(), at: now, transactionName: review.transactionName, contentDigest: review.contentDigest, identity: null, action: "expired", group: null, comment: null },
  ]);
}

/** The defer rules that matched and ask for review: the requirements of a review opened now. */
export function requirementsOf(bundle: PolicyBundle, outcome: Pick<Outcome, "decision" | "matched">): Requirement[] {
  if (outcome.decision !== "defer") return [];
  const matched = new Set(outcome.matched.filter((m) => m.decision === "defer").map((m) => m.rule));
  return bundle.rules.flatMap((rule) =>
    rule.review && matched.has(rule.id)
      ? [{ rule: rule.id, group: rule.review.group, quorum: rule.review.quorum, expiresAfter: rule.review.expiresAfter }]
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

/** Opens the review when this deferring delivery is the first to need one; returns it, or null. */
export async function openReview(trx: Db, d: OpeningDelivery): Promise<StoredReview | null> {
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
  await insertReview(trx, review);
  await insertActions(
    trx,
    [...new Set(requirements.map((r) => r.group))].map((group) => ({
      id: randomUUID(),
      at: d.now,
      transactionName: review.transactionName,
      contentDigest: review.contentDigest,
      identity: null,
      action: "opened" as const,
      group,
      comment: requirements.filter((r) => r.group === group).map((r) => `${r.rule}: ${r.quorum} of ${r.group}`).join("; "),
    })),
  );
  return review;
}
