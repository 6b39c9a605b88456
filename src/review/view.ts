/** The `Review` object of the review API (docs/interface.md section 9), from a review and its actions. */
import type { ReviewRecord } from "./actions.js";
import { approvalsNeeded } from "../core/review/requirement.js";
import { expiryInForce, reviewStatus, type ReviewBundle } from "./state.js";
import type { ReviewState } from "../core/review/types.js";

export interface ReviewActionView {
  identity: string;
  at: string;
  comment: string | null;
}

export interface ReviewView {
  transactionName: string;
  vault: string;
  state: ReviewState;
  openedAt: string;
  expiresAt: string;
  contentDigest: string;
  requirements: { rule: string; group: string; quorum: number; approvals: ReviewActionView[] }[];
  rejection: ReviewActionView | null;
  openedBy: string;
  explanation: unknown;
}

export function reviewView({ review, actions }: ReviewRecord, now: Date, bundle: ReviewBundle): ReviewView {
  const status = reviewStatus(review, actions, now, bundle);
  const asView = (a: { identity: string | null; at: Date; comment: string | null }): ReviewActionView => ({
    identity: a.identity ?? "",
    at: a.at.toISOString(),
    comment: a.comment,
  });
  return {
    transactionName: review.transactionName,
    vault: review.vault,
    state: status.state,
    openedAt: review.openedAt.toISOString(),
    // The expiry in force: a bundle with a shorter expiresAfter than the opening's brings it forward.
    expiresAt: expiryInForce(review, bundle).toISOString(),
    contentDigest: review.contentDigest,
    requirements: review.requirements.map((r) => {
      const approvals = status.approvals.filter((a) => a.group === r.group);
      return {
        rule: r.rule,
        group: r.group,
        // The approvals needed: one more than the rule's quorum when the initiator could be among
        // the approvers unrecognised (requirement.ts), given who approved so far.
        quorum: approvalsNeeded(
          bundle,
          r.group,
          r.quorum,
          review.initiator,
          approvals.map((a) => a.identity ?? ""),
        ),
        approvals: approvals.map(asView),
      };
    }),
    rejection: status.rejection ? asView(status.rejection) : null,
    openedBy: review.openedBy,
    explanation: review.explanation,
  };
}
