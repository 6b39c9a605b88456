/**
 * A review's state, read from its append-only actions (CONTRACT.md section 9): `open` until every
 * requirement has `quorum` distinct approvers (`approved`), a member rejects (`rejected`) or
 * `expiresAt` passes first (`expired`). The first of those to happen is final.
 */
import type { ReviewAction, StoredReview } from "./store.js";
import type { ReviewState } from "./types.js";

export interface ReviewStatus {
  state: ReviewState;
  /** The rejection that closed the review, if one did. */
  rejection: ReviewAction | null;
  /** Approvals in the order they happened. */
  approvals: ReviewAction[];
  /** True when the review is past its expiry but no `expired` action is recorded yet. */
  expiryUnrecorded: boolean;
}

export function requirementsMet(review: StoredReview, approvals: readonly ReviewAction[]): boolean {
  return review.requirements.every((req) => {
    const approvers = new Set(approvals.filter((a) => a.group === req.group).map((a) => a.identity));
    return approvers.size >= req.quorum;
  });
}

export function reviewStatus(review: StoredReview, actions: readonly ReviewAction[], now: Date): ReviewStatus {
  const approvals: ReviewAction[] = [];
  for (const action of actions) {
    if (action.action === "rejected") return { state: "rejected", rejection: action, approvals, expiryUnrecorded: false };
    if (action.action === "expired") return { state: "expired", rejection: null, approvals, expiryUnrecorded: false };
    if (action.action !== "approved") continue;
    approvals.push(action);
    if (requirementsMet(review, approvals)) {
      approvals.push(...actions.slice(actions.indexOf(action) + 1).filter((a) => a.action === "approved"));
      return { state: "approved", rejection: null, approvals, expiryUnrecorded: false };
    }
  }
  const expired = now.getTime() >= review.expiresAt.getTime();
  return { state: expired ? "expired" : "open", rejection: null, approvals, expiryUnrecorded: expired };
}
