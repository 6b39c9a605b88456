/**
 * The `review.*` facts from a review's recorded approvals (the webhook) or from the approvals a
 * policy test case states: the distinct identities whose approval is still valid under the
 * bundle in force — a member of the group they approved for, and not the initiator.
 */
import type { PolicyBundle } from "../policy/types.js";
import { countingApprovers } from "./requirement.js";
import { normalIdentity, type ReviewFacts, type ReviewState } from "./types.js";

export interface GroupApproval {
  identity: string;
  group: string;
}

export function reviewFacts(bundle: PolicyBundle, state: ReviewState, approvals: readonly GroupApproval[], initiator: string | null): ReviewFacts {
  const approvers = new Set<string>();
  for (const a of approvals) {
    for (const identity of countingApprovers(bundle, a.group, [a.identity], initiator)) approvers.add(identity);
  }
  const sorted = [...approvers].sort();
  return { state, approvals: sorted.length, approvers: sorted };
}

/** A policy test case's `approvals: [identity, ...]`: each counts for every group it is a member of. */
export function statedReviewFacts(bundle: PolicyBundle, identities: readonly string[], initiator: string | null): ReviewFacts {
  const groups = Object.keys(bundle.reviewers ?? {});
  const approvals = identities.flatMap((identity) => groups.map((group) => ({ identity: normalIdentity(identity), group })));
  return reviewFacts(bundle, "open", approvals, initiator);
}
