/**
 * A review's state, read from its append-only actions (docs/interface.md section 9): `open` until every
 * requirement has `quorum` approvals that count (`approved`), a member rejects (`rejected`) or
 * `expiresAt` passes first (`expired`). The first of those to happen is final: a recorded rejection
 * or expiry stays, whatever a later bundle would count.
 */
import type { PolicyBundle } from "../core/policy/types.js";
import { countingApprovers } from "../core/review/requirement.js";
import type { ReviewAction, StoredReview } from "./store.js";
import type { ReviewState } from "../core/review/types.js";

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
 * unknown the worst case of one platform user out); and where the bundle still has the requirement's
 * rule, also as that rule asks now (its group and quorum: a raised quorum keeps the review open for
 * more approvals, as the policy keeps deferring). Counting the same way is what keeps a review from
 * closing as approved while the transaction would still be deferred.
 */
export function requirementsMet(review: StoredReview, approvals: readonly ReviewAction[], bundle: ReviewBundle): boolean {
  const everyone = [...new Set(approvals.map((a) => a.identity ?? ""))];
  const counted = (group: string, quorum: number, approvers: readonly string[]) => countingApprovers(bundle, group, approvers, review.initiator).length >= quorum;
  return review.requirements.every((req) => {
    const approvers = [...new Set(approvals.filter((a) => a.group === req.group).map((a) => a.identity ?? ""))];
    const askedNow = bundle.rules?.find((rule) => rule.id === req.rule)?.review;
    return counted(req.group, req.quorum, approvers) && (!askedNow || counted(askedNow.group, askedNow.quorum, everyone));
  });
}

/** The reviewer groups, and the rules where the bundle gives them (the review's state then reads what the rules ask now). */
export type ReviewBundle = Pick<PolicyBundle, "reviewers"> & Partial<Pick<PolicyBundle, "rules">>;

/**
 * The reviewer groups as the review recorded them when it opened (a group it did not record, on a
 * review opened before they were kept, as the bundle in force gives it). Past the expiry the
 * approvals must meet both these and the bundle in force: a bundle loaded after the expiry that
 * counts more than the opening's did cannot approve the review after the fact. (Which bundle was in
 * force at each approval is not recorded, so one in force only between the opening and the expiry
 * is not consulted.)
 */
function bundleWhenOpened(review: StoredReview, bundle: ReviewBundle): ReviewBundle {
  const recorded = review.requirements.flatMap((r) => (r.members ? [[r.group, r.members] as const] : []));
  return { reviewers: { ...bundle.reviewers, ...Object.fromEntries(recorded) } };
}

/**
 * When the review expires under the bundle in force: the expiry set at its opening, or sooner when
 * a rule it requires asks a shorter `expiresAfter` now, counted from the opening. Never later: a
 * bundle can shorten the time approvers have, not lengthen it. The expiry is set by the bundle of
 * the pod that opened the review, and while a pull request reaches the pods one by one that may
 * be the bundle it replaces: without this a pod on the new bundle took approvals past the new
 * expiry and signed.
 */
export function expiryInForce(review: StoredReview, bundle: ReviewBundle): Date {
  const asked = review.requirements.flatMap((req) => {
    const seconds = bundle.rules?.find((rule) => rule.id === req.rule)?.review?.expiresAfterSeconds;
    return seconds === undefined ? [] : [review.openedAt.getTime() + seconds * 1000];
  });
  return new Date(Math.min(review.expiresAt.getTime(), ...asked));
}

/**
 * A recorded rejection or expiry closed the review: each is recorded only while the review is open
 * under the bundle then in force (actions.ts, decision-step.ts), so it happened first, and a later
 * bundle that would count the earlier approvals differently does not reopen it. Otherwise the
 * approvals (all recorded before the expiry, which refuses later ones) count under the bundle in
 * force, and past the expiry under the groups recorded at the opening too. The expiry is the one
 * in force (expiryInForce), and approvals recorded after it do not count.
 */
export function reviewStatus(review: StoredReview, actions: readonly ReviewAction[], now: Date, bundle: ReviewBundle): ReviewStatus {
  const closing = actions.findIndex((a) => a.action === "rejected" || a.action === "expired");
  const expiresAt = expiryInForce(review, bundle);
  // Approvals after the expiry in force do not count: a pod still on a bundle with a longer
  // expiresAfter (or this one before a reload) may have taken them.
  const approvals = (closing < 0 ? actions : actions.slice(0, closing)).filter((a) => a.action === "approved" && a.at.getTime() < expiresAt.getTime());
  if (closing >= 0) {
    const action = actions[closing]!;
    return { state: action.action === "rejected" ? "rejected" : "expired", rejection: action.action === "rejected" ? action : null, approvals, expiryUnrecorded: false };
  }
  const expired = now.getTime() >= expiresAt.getTime();
  if (requirementsMet(review, approvals, bundle) && (!expired || requirementsMet(review, approvals, bundleWhenOpened(review, bundle)))) {
    return { state: "approved", rejection: null, approvals, expiryUnrecorded: false };
  }
  return { state: expired ? "expired" : "open", rejection: null, approvals, expiryUnrecorded: expired };
}
