/**
 * A review's state, read from its append-only actions (CONTRACT.md section 9): `open` until every
 * requirement has `quorum` approvals that count (`approved`), a member rejects (`rejected`) or
 * `expiresAt` passes first (`expired`). The first of those to happen is final: a recorded rejection
 * or expiry stays, whatever a later bundle would count.
 */
import type { PolicyBundle } from "../policy/types.js";
import { countingApprovers } from "./requirement.js";
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

/**
 * Every requirement has `quorum` approvals that count under the bundle in force, as the policy's
 * evaluation counts them (requirement.ts: members only, the initiator out, and with the initiator
 * unknown the worst case of one platform user out). Counting the same way is what keeps a review
 * from closing as approved while the transaction would still be deferred.
 */
export function requirementsMet(review: StoredReview, approvals: readonly ReviewAction[], bundle: Pick<PolicyBundle, "reviewers">): boolean {
  return review.requirements.every((req) => {
    const approvers = [...new Set(approvals.filter((a) => a.group === req.group).map((a) => a.identity ?? ""))];
    return countingApprovers(bundle, req.group, approvers, review.initiator).length >= req.quorum;
  });
}

/**
 * The reviewer groups as the review recorded them when it opened (a group it did not record, on a
 * review opened before they were kept, as the bundle in force gives it). Past the expiry nothing
 * says which bundle was in force when the approvals came in: met under both the opening's and
 * today's, the review was approved in time; a bundle loaded since cannot approve it after the fact.
 */
function bundleWhenOpened(review: StoredReview, bundle: Pick<PolicyBundle, "reviewers">): Pick<PolicyBundle, "reviewers"> {
  const recorded = review.requirements.flatMap((r) => (r.members ? [[r.group, r.members] as const] : []));
  return { reviewers: { ...bundle.reviewers, ...Object.fromEntries(recorded) } };
}

/**
 * A recorded rejection or expiry closed the review: each is recorded only while the review is open
 * under the bundle then in force (actions.ts, decision-step.ts), so it happened first, and a later
 * bundle that would count the earlier approvals differently does not reopen it. Otherwise the
 * approvals (all recorded before the expiry, which refuses later ones) count under the bundle in
 * force, and past the expiry under the groups recorded at the opening too.
 */
export function reviewStatus(review: StoredReview, actions: readonly ReviewAction[], now: Date, bundle: Pick<PolicyBundle, "reviewers">): ReviewStatus {
  const closing = actions.findIndex((a) => a.action === "rejected" || a.action === "expired");
  const approvals = (closing < 0 ? actions : actions.slice(0, closing)).filter((a) => a.action === "approved");
  if (closing >= 0) {
    const action = actions[closing]!;
    return { state: action.action === "rejected" ? "rejected" : "expired", rejection: action.action === "rejected" ? action : null, approvals, expiryUnrecorded: false };
  }
  const expired = now.getTime() >= review.expiresAt.getTime();
  if (requirementsMet(review, approvals, bundle) && (!expired || requirementsMet(review, approvals, bundleWhenOpened(review, bundle)))) {
    return { state: "approved", rejection: null, approvals, expiryUnrecorded: false };
  }
  return { state: expired ? "expired" : "open", rejection: null, approvals, expiryUnrecorded: expired };
}
