/**
 * Evaluation (CONTRACT.md section 2): a pure function of (bundle, facts) — no clock, no I/O — so
 * the webhook, `explain`, `policy check` and replay of recorded facts all get the same answer.
 */
import type { Facts } from "../facts/types.js";
import { applyLogic, truthy } from "./decimal-logic.js";
import { decisionReasons } from "./reasons.js";
import type { Decision, DefaultDecision, EvaluationTrace, Outcome, PolicyBundle, Rule, RuleMatch } from "./types.js";

const SEVERITY: Record<Decision, number> = { allow: 0, defer: 1, deny: 2 };

/** The most severe of the decisions: deny over defer over allow. */
export function mostSevere(decisions: readonly Decision[]): Decision | null {
  return decisions.reduce<Decision | null>((worst, d) => (worst === null || SEVERITY[d] > SEVERITY[worst] ? d : worst), null);
}

/** A hand-built bundle could carry `allow` as its default; never let that allow anything. */
export function safeDefault(bundle: PolicyBundle): DefaultDecision {
  return bundle.default === "defer" ? "defer" : "deny";
}

type RuleResult = { matched: true; error?: string } | { matched: false; error?: string };

/**
 * One rule against one facts document. A rule that fails to evaluate resolves to the safe side:
 * a deny or defer rule counts as matched, an allow rule does not.
 */
function evaluateRule(rule: Rule, facts: Facts): RuleResult {
  try {
    return { matched: truthy(applyLogic(rule.when, facts)) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { matched: rule.decision !== "allow", error: message };
  }
}

/** Every rule against one facts document (one transfer, or the transaction without transfers). */
export function evaluateFacts(bundle: PolicyBundle, facts: Facts): EvaluationTrace {
  const transfer = facts.transfer ? facts.transfer.index : null;
  const matched: RuleMatch[] = [];
  const errors: { rule: string; error: string }[] = [];
  for (const rule of bundle.rules) {
    const result = evaluateRule(rule, facts);
    if (result.error !== undefined) errors.push({ rule: rule.id, error: result.error });
    if (!result.matched) continue;
    matched.push({ rule: rule.id, decision: rule.decision, transfer, ...(result.error !== undefined ? { error: result.error } : {}) });
  }
  const ruled = mostSevere(matched.map((m) => m.decision));
  return { transfer, decision: ruled ?? safeDefault(bundle), matched, errors, byDefault: ruled === null };
}

/**
 * The transaction's outcome: deny if any evaluation denied, else defer if any deferred, else
 * allow. No facts at all (nothing to evaluate) never allows: the default decides.
 */
export function evaluate(bundle: PolicyBundle, facts: readonly Facts[]): Outcome {
  const evaluations = facts.map((f) => evaluateFacts(bundle, f));
  const decision = mostSevere(evaluations.map((e) => e.decision)) ?? safeDefault(bundle);
  return {
    decision,
    reasons: decisionReasons(bundle, evaluations, decision),
    matched: evaluations.flatMap((e) => e.matched),
    evaluations,
    facts: [...facts],
  };
}
