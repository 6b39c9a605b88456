/**
 * When a defer rule's review requirement is met (docs/interface.md section 9), as a pure function of the
 * bundle and the facts, so `explain`, `policy check` and replays of recorded facts agree with the
 * webhook: at least `quorum` distinct members of the rule's group among `review.approvers`, none of
 * them the transaction's initiator.
 *
 * A body need not name its initiator (the reference shape has no `request.initiator`). Then any
 * approver may be the initiator, and none can be refused for it: the approvals that count are
 * those left after taking out the most that one platform user could be (one approver, unless the
 * bundle gives several identities the same user). So such a review needs one approval more than
 * the rule's quorum (`approvalsNeeded`), never fewer valid ones.
 *
 * A body may also name an initiator no member is recognised as (members listed by email alone, the
 * initiator `users/9f3k2`). The platform user of a member without a declared `user` is then not
 * known, so any such approver may be the initiator: one of them is taken out, as for an unknown
 * initiator. Approvers with a declared `user` are certainly someone else and count fully.
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

/** The bundle's reviewer groups that list the identity (compared after lower-casing), in the bundle's order. */
export function groupsOf(bundle: Pick<PolicyBundle, "reviewers">, identity: string): string[] {
  const wanted = normalIdentity(identity);
  return Object.entries(bundle.reviewers ?? {})
    .filter(([, members]) => members.some((m) => m.identity === wanted))
    .map(([group]) => group);
}

export function initiatorUnknown(initiator: string | null): boolean {
  return initiator === null || initiator.trim() === "";
}

/**
 * The body names an initiator, but no identity of the bundle (in any group) is recognised as it:
 * docs/interface.md section 9 would then refuse no one, while a member listed without `user` may well be
 * that platform user.
 */
export function initiatorUnrecognised(bundle: Pick<PolicyBundle, "reviewers">, initiator: string | null): boolean {
  if (initiatorUnknown(initiator)) return false;
  return !Object.values(bundle.reviewers ?? {}).some((members) => members.some((m) => isInitiator(bundle, m.identity, initiator)));
}

/** No group gives the identity a `user`: which platform user it is, the bundle does not say. */
export function userUndeclared(bundle: Pick<PolicyBundle, "reviewers">, identity: string): boolean {
  return !Object.values(bundle.reviewers ?? {}).some((members) => members.some((m) => m.identity === identity && m.user));
}

/**
 * The approvals a requirement needs, as the review shows them: its quorum, and one more while the
 * initiator could be among its approvers unrecognised. With the initiator unknown, always. With it
 * unrecognised, once a member without a declared `user` approved, or, while none has and the
 * quorum is not yet met, as long as the group has such a member who still could.
 */
export function approvalsNeeded(bundle: Pick<PolicyBundle, "reviewers">, group: string, quorum: number, initiator: string | null, approvers: readonly string[] = []): number {
  if (initiatorUnknown(initiator)) return quorum + 1;
  if (!initiatorUnrecognised(bundle, initiator)) return quorum;
  const wanted = new Set(approvers.map(normalIdentity));
  const members = groupMembers(bundle, group).map((m) => m.identity);
  const approving = members.filter((identity) => wanted.has(identity));
  if (approving.some((identity) => userUndeclared(bundle, identity))) return quorum + 1;
  const couldStill = members.some((identity) => !wanted.has(identity) && userUndeclared(bundle, identity));
  return new Set(approving).size < quorum && couldStill ? quorum + 1 : quorum;
}

/** The approvers that count for a group: its members, without the initiator (or, unknown or unrecognised, without the worst case of one). */
export function countingApprovers(bundle: Pick<PolicyBundle, "reviewers">, group: string, approvers: readonly string[], initiator: string | null): string[] {
  const wanted = new Set(approvers.map(normalIdentity));
  const members = [
    ...new Set(
      groupMembers(bundle, group)
        .filter((m) => wanted.has(m.identity))
        .map((m) => m.identity),
    ),
  ];
  return withoutInitiator(bundle, members, initiator);
}

/**
 * `identities` without the initiator; with the initiator unknown, without the most that one
 * platform user could be; with it unrecognised, without one of those whose user is undeclared.
 */
export function withoutInitiator(bundle: Pick<PolicyBundle, "reviewers">, identities: readonly string[], initiator: string | null): string[] {
  const excluded = initiatorUnknown(initiator) ? worstCaseInitiator(bundle, identities) : initiator;
  const others = identities.filter((identity) => !isInitiator(bundle, identity, excluded));
  return initiatorUnrecognised(bundle, initiator) ? withoutOneUndeclared(bundle, others) : others;
}

/**
 * The initiator could be any one approver whose user the bundle does not declare (and only one:
 * two such identities are taken for two people, as worstCaseInitiator takes them). Which one is not
 * known; taking out the first gives the same count as any other.
 */
function withoutOneUndeclared(bundle: Pick<PolicyBundle, "reviewers">, identities: readonly string[]): string[] {
  const first = identities.findIndex((identity) => userUndeclared(bundle, identity));
  return identities.filter((_, i) => i !== first);
}

/** Of the platform users the approvers could be, the one that is the most of them; null when none. */
function worstCaseInitiator(bundle: Pick<PolicyBundle, "reviewers">, identities: readonly string[]): string | null {
  const declared = Object.values(bundle.reviewers ?? {}).flat();
  const candidates = new Set(
    identities.flatMap((identity) => [`users/${identity}`, ...declared.filter((m) => m.identity === identity && m.user).map((m) => m.user!.toLowerCase())]),
  );
  let worst: string | null = null;
  let most = 0;
  for (const user of candidates) {
    const count = identities.filter((identity) => isInitiator(bundle, identity, user)).length;
    if (count > most) [worst, most] = [user, count];
  }
  return worst;
}

export function reviewMet(bundle: PolicyBundle, rule: Rule, facts: Facts): boolean {
  if (rule.decision !== "defer" || !rule.review || !facts.review) return false;
  if (facts.review.state !== "open" && facts.review.state !== "approved") return false;
  const counted = new Set(countingApprovers(bundle, rule.review.group, facts.review.approvers, facts.tx.initiator));
  return counted.size >= rule.review.quorum;
}
