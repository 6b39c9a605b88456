/**
 * When a defer rule's review requirement is met (CONTRACT.md section 9), as a pure function of the
 * bundle and the facts, so `explain`, `policy check` and replays of recorded facts agree with the
 * webhook: at least `quorum` distinct members of the rule's group among `review.approvers`, none of
 * them the transaction's initiator.
 */
import type { Facts } from "../facts/types.js";
import type { PolicyBundle, Rule } from "../policy/types.js";
import { normalIdentity, type ReviewerMember } from "./types.js";

/**
 * An identity is the initiator when `users/<identity>`, or a platform user the bundle gives it in
 * any group, is `tx.initiator` (compared without case: a refusal errs toward refusing). A user
 * declared in one group holds in every other: listing the same person plainly elsewhere must not
 * let them approve their own transfer there.
 */
export function isInitiator(bundle: Pick<PolicyBundle, "reviewers">, identity: string, initiator: string | null): boolean {
  if (initiator === null || initiator === "") return false;
  const wanted = initiator.toLowerCase();
  if (`users/${identity}` === wanted) return true;
  return Object.values(bundle.reviewers ?? {}).some((members) => members.some((m) => m.identity === identity && m.user?.toLowerCase() === wanted));
}

export function groupMembers(bundle: Pick<PolicyBundle, "reviewers">, group: string): readonly ReviewerMember[] {
  const groups = bundle.reviewers ?? {};
  return Object.hasOwn(groups, group) ? (groups[group] ?? []) : [];
}

/** The approvers that count for a group: its members, without the initiator. */
export function countingApprovers(bundle: Pick<PolicyBundle, "reviewers">, group: string, approvers: readonly string[], initiator: string | null): string[] {
  const wanted = new Set(approvers.map(normalIdentity));
  return groupMembers(bundle, group)
    .filter((m) => wanted.has(m.identity) && !isInitiator(bundle, m.identity, initiator))
    .map((m) => m.identity);
}

export function reviewMet(bundle: PolicyBundle, rule: Rule, facts: Facts): boolean {
  if (rule.decision !== "defer" || !rule.review || !facts.review) return false;
  if (facts.review.state !== "open" && facts.review.state !== "approved") return false;
  const counted = new Set(countingApprovers(bundle, rule.review.group, facts.review.approvers, facts.tx.initiator));
  return counted.size >= rule.review.quorum;
}
