/**
 * The human-readable reasons for a decision: what the co-signer's cancellation, the audit row and
 * `explain` show. Only what produced the final decision is listed: the matched rules of that
 * decision (in rule order), and the default when it decided some evaluation.
 */
import type { Decision, EvaluationTrace, PolicyBundle, Rule, RuleMatch } from "./types.js";

function ruleReason(rule: Rule, matches: readonly RuleMatch[]): string {
  const label = rule.reason ?? `rule ${rule.id}`;
  const failed = matches.find((m) => m.error !== undefined);
  if (!failed) return label;
  const failure = `rule ${rule.id} failed to evaluate: ${failed.error}`;
  return rule.reason === null ? failure : `${label} (${failure})`;
}

function defaultReason(decision: Decision, evaluated: boolean): string {
  return evaluated ? `no rule allowed (default: ${decision})` : `nothing to evaluate (default: ${decision})`;
}

export function decisionReasons(bundle: PolicyBundle, evaluations: readonly EvaluationTrace[], decision: Decision): string[] {
  const reasons: string[] = [];
  for (const rule of bundle.rules) {
    if (rule.decision !== decision) continue;
    const matches = evaluations.flatMap((e) => e.matched.filter((m) => m.rule === rule.id));
    if (matches.length > 0) reasons.push(ruleReason(rule, matches));
  }
  const byDefault = evaluations.some((e) => e.byDefault && e.decision === decision);
  if (byDefault || evaluations.length === 0) reasons.push(defaultReason(decision, evaluations.length > 0));
  return [...new Set(reasons)];
}
