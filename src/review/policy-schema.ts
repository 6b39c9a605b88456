/**
 * The review parts of policy.yaml (docs/interface.md section 9): `reviewers` (group → members) and a
 * rule's `review`. Cross-checks that need the whole document (the group exists, the quorum fits
 * it, only defer rules ask for review) are in `reviewProblems`, reported with the other problems.
 */
import { z } from "zod";
import { MAX_POLICY_DURATION_DAYS, isPolicyDuration, parseDuration } from "../duration.js";
import { normalIdentity, type ReviewerGroups, type RuleReview } from "../core/review/types.js";

const GROUP_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const USER_NAME = /^users\/[A-Za-z0-9_-]+$/;

const identity = z.string().trim().min(1, "an identity must not be empty").max(320);

const member = z.union(
  [identity, z.strictObject({ identity, user: z.string().regex(USER_NAME, "user is a platform user name, users/{id}").optional() })],
  "a member is an identity, or {identity, user}",
);

export const reviewersSchema = z.record(
  z.string().regex(GROUP_NAME, "a reviewer group name is 1-64 letters, digits, _ . or -, starting with a letter or digit"),
  z.array(member).min(1, "a reviewer group needs at least one member"),
);

export const ruleReviewSchema = z.strictObject({
  group: z.string().min(1, "review.group names a group of reviewers"),
  quorum: z.number().int("quorum is a whole number").min(1, "quorum is at least 1"),
  expiresAfter: z.string().refine(isPolicyDuration, `expiresAfter is a positive whole number with a unit s, m, h or d (e.g. 24h), at most ${MAX_POLICY_DURATION_DAYS}d`),
});

type RawMember = z.output<typeof member>;
type RawReview = z.output<typeof ruleReviewSchema>;

export interface ReviewProblem {
  path: (string | number)[];
  message: string;
}

/** Problems that need the whole document: a review on a rule that does not defer, an unknown group, a quorum the group cannot reach, a member listed twice. */
export function reviewProblems(doc: { reviewers?: Record<string, RawMember[]> | undefined; rules: { decision: string; review?: RawReview | undefined }[] }): ReviewProblem[] {
  const problems: ReviewProblem[] = [];
  const groups = toReviewerGroups(doc.reviewers);
  for (const [name, members] of Object.entries(groups)) {
    const seen = new Set<string>();
    members.forEach((m, i) => {
      if (seen.has(m.identity)) problems.push({ path: ["reviewers", name, i], message: `${m.identity} is listed twice in group ${name}` });
      seen.add(m.identity);
    });
  }
  doc.rules.forEach((rule, i) => {
    if (!rule.review) return;
    if (rule.decision !== "defer") problems.push({ path: ["rules", i, "review"], message: "review is accepted on defer rules only" });
    const members = Object.hasOwn(groups, rule.review.group) ? groups[rule.review.group] : undefined;
    if (!members) {
      problems.push({ path: ["rules", i, "review", "group"], message: `no reviewer group ${JSON.stringify(rule.review.group)} (declare it under reviewers)` });
    } else if (rule.review.quorum > new Set(members.map((m) => m.identity)).size) {
      problems.push({ path: ["rules", i, "review", "quorum"], message: `quorum ${rule.review.quorum} is more than the ${members.length} members of group ${rule.review.group}` });
    }
  });
  return problems;
}

export function toReviewerGroups(raw: Record<string, RawMember[]> | undefined): ReviewerGroups {
  const groups: Record<string, ReviewerMember[]> = {};
  for (const [name, members] of Object.entries(raw ?? {})) {
    groups[name] = members.map((m) => (typeof m === "string" ? { identity: normalIdentity(m), user: null } : { identity: normalIdentity(m.identity), user: m.user ?? null }));
  }
  return groups;
}

export function toRuleReview(raw: RawReview | undefined): RuleReview | undefined {
  if (!raw) return undefined;
  return { group: raw.group, quorum: raw.quorum, expiresAfter: raw.expiresAfter, expiresAfterSeconds: parseDuration(raw.expiresAfter) ?? 0 };
}

type ReviewerMember = ReviewerGroups[string][number];
