/**
 * A reviewer's approval or rejection (docs/interface.md section 9). Serialised with every delivery of the
 * same transaction by the transaction name's advisory lock, so two reviewers approving at once are
 * both counted, once each, and no approval slips in beside a delivery reading the approvals.
 */
import { randomUUID } from "node:crypto";
import { findFinalDecision, lockTransactionName, type ArchivedFinalDecision, type FinalDecision } from "../audit/decision-rows.js";
import type { Db } from "../database.js";
import { AppError, err, ok, type Result } from "../core/errors.js";
import type { PolicyBundle } from "../core/policy/types.js";
import { recordExpiry } from "./decision-step.js";
import { groupMembers, isInitiator } from "../core/review/requirement.js";
import { reviewStatus } from "./state.js";
import { actionsOf, findReview, insertActions, type ReviewAction, type StoredReview } from "./store.js";
import { normalIdentity } from "../core/review/types.js";

export type ReviewVerb = "approve" | "reject";

export interface ReviewActionRequest {
  transactionName: string;
  identity: string;
  verb: ReviewVerb;
  comment: string | null;
  bundle: PolicyBundle;
  now: Date;
}

export interface ReviewRecord {
  review: StoredReview;
  actions: ReviewAction[];
}

/**
 * The groups some requirement of the review names that list the identity under the bundle in
 * force: who may approve, reject and read the review (docs/interface.md section 9, NOT_A_REVIEWER).
 */
export function requiredGroupsOf(review: StoredReview, bundle: Pick<PolicyBundle, "reviewers">, identity: string): string[] {
  const wanted = normalIdentity(identity);
  return [...new Set(review.requirements.map((r) => r.group))].filter((group) => groupMembers(bundle, group).some((m) => m.identity === wanted));
}

export const notAReviewerOf = (identity: string) => new AppError("NOT_A_REVIEWER", `${normalIdentity(identity)} is in no reviewer group this review requires`);

export async function readReview(db: Db, transactionName: string): Promise<ReviewRecord | undefined> {
  const review = await findReview(db, transactionName);
  if (!review) return undefined;
  return { review, actions: (await actionsOf(db, [review])).get(transactionName) ?? [] };
}

export async function actOnReview(db: Db, request: ReviewActionRequest): Promise<Result<ReviewRecord, AppError>> {
  return db.transaction().execute(async (trx) => {
    await lockTransactionName(trx, request.transactionName);
    const record = await readReview(trx, request.transactionName);
    if (!record) return err(new AppError("NOT_FOUND", "this transaction has no review"));
    const written = await decideAction(trx, record, request, await findFinalDecision(trx, request.transactionName));
    if (!written.ok) return written;
    return ok({ review: record.review, actions: [...record.actions, ...written.value] });
  });
}

async function decideAction(
  trx: Db,
  { review, actions }: ReviewRecord,
  request: ReviewActionRequest,
  decided: FinalDecision | ArchivedFinalDecision | undefined,
): Promise<Result<ReviewAction[], AppError>> {
  const identity = normalIdentity(request.identity);
  const memberships = requiredGroupsOf(review, request.bundle, identity).map((group) => ({ group }));
  if (memberships.length === 0) return err(notAReviewerOf(identity));
  const already = (group: string) => actions.some((a) => a.action === "approved" && a.identity === identity && a.group === group);
  const pending = memberships.filter((m) => !already(m.group));
  // A second approval by the same identity changes nothing, whatever state the review is in now.
  if (request.verb === "approve" && pending.length === 0) return ok([]);
  if (request.verb === "approve" && isInitiator(request.bundle, identity, review.initiator)) {
    return err(new AppError("INITIATOR_CANNOT_APPROVE", "the transaction's initiator cannot approve it"));
  }
  // A decided transaction's review is over, whatever a later bundle counts: an action now would
  // record a rejection or an expiry that stopped nothing.
  if (decided) return err(new AppError("REVIEW_CLOSED", `the transaction is already decided: ${"archived" in decided ? "in a month archived since" : decided.decision}`));
  const status = reviewStatus(review, actions, request.now, request.bundle);
  if (status.expiryUnrecorded) await recordExpiry(trx, review, request.now);
  if (status.state !== "open") return err(new AppError("REVIEW_CLOSED", `the review is ${status.state}`));

  const action = (group: string, kind: "approved" | "rejected"): ReviewAction => ({
    id: randomUUID(),
    at: request.now,
    transactionName: review.transactionName,
    contentDigest: review.contentDigest,
    identity,
    action: kind,
    group,
    comment: request.comment,
  });
  const written = request.verb === "approve" ? pending.map((m) => action(m.group, "approved")) : [action(memberships[0]!.group, "rejected")];
  await insertActions(trx, written);
  return ok(written);
}
