/**
 * Reading and writing the append-only `reviews` and `review_actions` tables. Functions take the
 * caller's `db` or transaction, so the caller owns the boundary.
 */
import { sql } from "kysely";
import type { Db } from "../database.js";
import type { ReviewerMember } from "../core/review/types.js";

/** One defer rule's requirement, fixed when the review opens. */
export interface Requirement {
  rule: string;
  group: string;
  quorum: number;
  expiresAfter: string;
  /**
   * The group's members when the review opened (absent on reviews opened before they were kept):
   * past its expiry a review counts as approved only if its approvals also met this, so a bundle
   * loaded after the expiry cannot approve it on members the opening did not have (state.ts).
   */
  members?: readonly ReviewerMember[];
}

export interface StoredReview {
  id: string;
  transactionName: string;
  vault: string;
  contentDigest: string;
  openedAt: Date;
  expiresAt: Date;
  openedBy: string;
  initiator: string | null;
  requirements: Requirement[];
  explanation: unknown;
}

export type ReviewActionKind = "opened" | "approved" | "rejected" | "expired";

export interface ReviewAction {
  id: string;
  at: Date;
  transactionName: string;
  contentDigest: string;
  identity: string | null;
  action: ReviewActionKind;
  group: string | null;
  comment: string | null;
}

const REVIEW_COLUMNS = ["id", "transaction_name", "vault", "content_digest", "opened_at", "expires_at", "opened_by", "initiator", "requirements", "explanation"] as const;

export type ReviewRow = {
  id: string;
  transaction_name: string;
  vault: string;
  content_digest: string;
  opened_at: Date;
  expires_at: Date;
  opened_by: string;
  initiator: string | null;
  requirements: unknown;
  explanation: unknown;
};

export const toReview = (r: ReviewRow): StoredReview => ({
  id: r.id,
  transactionName: r.transaction_name,
  vault: r.vault,
  contentDigest: r.content_digest,
  openedAt: new Date(r.opened_at),
  expiresAt: new Date(r.expires_at),
  openedBy: r.opened_by,
  initiator: r.initiator,
  requirements: r.requirements as Requirement[],
  explanation: r.explanation,
});

/** The transaction name's review (the latest, should a name ever have had two contents). */
export async function findReview(db: Db, transactionName: string): Promise<StoredReview | undefined> {
  const row = await db.selectFrom("reviews").select(REVIEW_COLUMNS).where("transaction_name", "=", transactionName).orderBy("seq", "desc").limit(1).executeTakeFirst();
  return row ? toReview(row) : undefined;
}

/** Reviews newest first, only those some requirement of which names one of `groups`. */
export async function listReviews(db: Db, limit: number, groups: readonly string[]): Promise<StoredReview[]> {
  if (groups.length === 0) return [];
  const rows = await db
    .selectFrom("reviews")
    .select(REVIEW_COLUMNS)
    .where((eb) => eb.or(groups.map((group) => sql<boolean>`requirements @> ${JSON.stringify([{ group }])}::jsonb`)))
    .orderBy("seq", "desc")
    .limit(limit)
    .execute();
  return rows.map(toReview);
}

/** The actions on the given reviews, in the order they happened, by transaction name. */
export async function actionsOf(db: Db, reviews: readonly StoredReview[]): Promise<Map<string, ReviewAction[]>> {
  const byName = new Map<string, ReviewAction[]>(reviews.map((r) => [r.transactionName, []]));
  if (reviews.length === 0) return byName;
  const digests = new Map(reviews.map((r) => [r.transactionName, r.contentDigest]));
  const rows = await db
    .selectFrom("review_actions")
    .select(["id", "at", "transaction_name", "content_digest", "identity", "action", "group", "comment"])
    .where("transaction_name", "in", [...byName.keys()])
    .orderBy("seq", "asc")
    .execute();
  for (const r of rows) {
    if (digests.get(r.transaction_name) !== r.content_digest) continue; // an action on other content never carries over
    byName.get(r.transaction_name)!.push(toAction(r));
  }
  return byName;
}

export interface ActionRow {
  id: string;
  at: Date | string;
  transaction_name: string;
  content_digest: string;
  identity: string | null;
  action: ReviewActionKind;
  group: string | null;
  comment: string | null;
}

export const toAction = (r: ActionRow): ReviewAction => ({
  id: r.id,
  at: new Date(r.at),
  transactionName: r.transaction_name,
  contentDigest: r.content_digest,
  identity: r.identity,
  action: r.action,
  group: r.group,
  comment: r.comment,
});

/** A review as the columns of its row (jsonb columns as JSON values). */
export const reviewRecord = (review: StoredReview) => ({
  id: review.id,
  transaction_name: review.transactionName,
  vault: review.vault,
  content_digest: review.contentDigest,
  opened_at: review.openedAt,
  expires_at: review.expiresAt,
  opened_by: review.openedBy,
  initiator: review.initiator,
  requirements: review.requirements,
  explanation: review.explanation,
});

/** An action as the columns of its row. */
export const actionRecord = (a: ReviewAction) => ({
  id: a.id,
  at: a.at,
  transaction_name: a.transactionName,
  content_digest: a.contentDigest,
  identity: a.identity,
  action: a.action,
  group: a.group,
  comment: a.comment,
});

export async function insertReview(db: Db, review: StoredReview): Promise<void> {
  await db
    .insertInto("reviews")
    .values({ ...reviewRecord(review), requirements: JSON.stringify(review.requirements), explanation: JSON.stringify(review.explanation) })
    .execute();
}

export async function insertActions(db: Db, actions: readonly ReviewAction[]): Promise<void> {
  if (actions.length === 0) return;
  await db.insertInto("review_actions").values(actions.map(actionRecord)).execute();
}
