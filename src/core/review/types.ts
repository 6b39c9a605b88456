/**
 * Human review of deferred transactions (docs/interface.md section 9): the bundle's reviewer groups and
 * a defer rule's review requirement, the review state and the facts a rule can read about it.
 */

/** A member of a reviewer group: the identity the reviewer's credential names (lower-cased), and the platform user it is. */
export interface ReviewerMember {
  identity: string;
  user: string | null;
}

/** Group name → members, from the bundle's `reviewers`. */
export type ReviewerGroups = Readonly<Record<string, readonly ReviewerMember[]>>;

/** `review: {group, quorum, expiresAfter}` on a defer rule. */
export interface RuleReview {
  group: string;
  quorum: number;
  /** As written, e.g. `24h`. */
  expiresAfter: string;
  expiresAfterSeconds: number;
}

export type ReviewState = "open" | "approved" | "rejected" | "expired";

/** `review.*` facts: `state` is `none` when the transaction has no review. */
export interface ReviewFacts {
  state: ReviewState | "none";
  /** Valid approvals counted: distinct approver identities. */
  approvals: number;
  /** Their identities, sorted. */
  approvers: string[];
}

export const NO_REVIEW: ReviewFacts = Object.freeze({ state: "none", approvals: 0, approvers: Object.freeze([]) as unknown as string[] });

/** Identities compare exactly after lower-casing. */
export const normalIdentity = (identity: string): string => identity.trim().toLowerCase();
