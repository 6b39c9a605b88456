/**
 * The `review.*` facts from a review's recorded approvals (the webhook) or from the approvals a
 * policy test case states: the distinct identities whose approval is still valid under the
 * bundle in force — a member of the group they approved for, and not the initiator.
 */
import type { PolicyBundle } from "../core/policy/types.js";
import { groupMembers, isInitiator, withoutInitiator } from "../core/review/requirement.js";
import { normalIdentity, type ReviewFacts, type ReviewState } from "../core/review/types.js";

export interface GroupApproval {
  identity: string;
  group: string;
}

export function reviewFacts(bundle: PolicyBundle, state: ReviewState, approvals: readonly GroupApproval[], initiator: string | null): ReviewFacts {
  const approvers = new Set<string>();
  for (const a of approvals) {
    const member = groupMembers(bundle, a.group).some((m) => m.identity === a.identity);
    if (member && !isInitiator(bundle, a.identity, initiator)) approvers.add(a.identity);
  }
  const sorted = [...approvers].sort();
  // With the initiator unknown, or named but recognised as no member, every member's approval is
  // listed (any one, or any one without a declared user, may be the initiator's; none can be told
  // apart), and `approvals` counts only those certain to be someone else's: a review requirement
  // takes that worst case out once, from the listed approvers (requirement.ts).
  return { state, approvals: withoutInitiator(bundle, sorted, initiator).length, approvers: sorted };
}

/** A policy test case's `approvals: [identity, ...]`: each counts for every group it is a member of. */
export function statedReviewFacts(bundle: PolicyBundle, identities: readonly string[], initiator: string | null): ReviewFacts {
  const groups = Object.keys(bundle.reviewers ?? {});
  const approvals = identities.flatMap((identity) => groups.map((group) => ({ identity: normalIdentity(identity), group })));
  return reviewFacts(bundle, "open", approvals, initiator);
}
