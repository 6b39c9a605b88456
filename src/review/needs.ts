/**
 * A requirement's need in words, said alike by the review's `opened` action, the notification and
 * the review page: how many approvals of which group, and why when that is more than the quorum.
 * When the body names an initiator no member is recognised as, the count depends on who approves
 * (requirement.ts), so the words give both counts rather than one that is wrong for some approvers.
 */
import type { PolicyBundle } from "../core/policy/types.js";
import { approvalsNeeded, groupMembers, initiatorUnknown, initiatorUnrecognised, userUndeclared } from "../core/review/requirement.js";

type Reviewers = Pick<PolicyBundle, "reviewers">;

export const UNKNOWN_INITIATOR_NOTE = " (the body names no initiator: one approval more than the rule's quorum)";
export const unrecognisedInitiatorNote = (initiator: string) => ` (the initiator ${initiator} is no member's user: any approver without a user could be them)`;

/**
 * `2 of ops`; with an unrecognised initiator some members may be, `3 of ops, or 2 if every approver
 * has a user` (the second only when the group has that many members whose user is declared).
 */
export function needs(bundle: Reviewers, group: string, quorum: number, initiator: string | null): string {
  const most = approvalsNeeded(bundle, group, quorum, initiator);
  const declared = groupMembers(bundle, group).filter((m) => !userUndeclared(bundle, m.identity)).length;
  const fewer = most > quorum && !initiatorUnknown(initiator) && declared >= quorum ? `, or ${quorum} if every approver has a user` : "";
  return `${most} of ${group}${fewer}`;
}

/** Why a group's approvals may count one fewer than given, or nothing when they cannot. */
export function initiatorNote(bundle: Reviewers, group: string, initiator: string | null): string {
  if (initiatorUnknown(initiator)) return UNKNOWN_INITIATOR_NOTE;
  const hidden = initiatorUnrecognised(bundle, initiator) && groupMembers(bundle, group).some((m) => userUndeclared(bundle, m.identity));
  return hidden ? unrecognisedInitiatorNote(initiator!) : "";
}
