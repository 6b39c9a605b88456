/**
 * Evaluation (docs/interface.md section 2): a pure function of (bundle, facts) — no clock, no I/O — so
 * the webhook, `explain`, `policy check` and replay of recorded facts all get the same answer.
 */
import type { Facts } from "../facts/types.js";
import { reviewMet } from "../review/requirement.js";
import { applyLogic, applyLogicTraced, truthy } from "./decimal-logic.js";
import { decisionReasons } from "./reasons.js";
import type { Decision, DefaultDecision, EvaluationTrace, Outcome, PolicyBundle, Rule, RuleMatch, RuleTrace } from "./types.js";

export interface EvaluateOptions {
  /** Record every rule's result and its comparisons' operand values (RuleTrace). */
  trace?: boolean;
}

const SEVERITY: Record<Decision, number> = { allow: 0, defer: 1, deny: 2 };

/** The most severe of the decisions: deny over defer over allow. */
export function mostSevere(decisions: readonly Decision[]): Decision | null {
  return decisions.reduce<Decision | null>((worst, d) => (worst === null || SEVERITY[d] > SEVERITY[worst] ? d : worst), null);
}

/** A hand-built bundle could carry `allow` as its default; never let that allow anything. */
export function safeDefault(bundle: PolicyBundle): DefaultDecision {
  return bundle.default === "defer" ? "defer" : "deny";
}

type RuleResult = { matched: boolean; error?: string; trace?: RuleTrace };

/**
 * One rule against one facts document. A rule that fails to evaluate resolves to the safe side:
 * a deny or defer rule counts as matched, an allow rule does not.
 */
function evaluateRule(rule: Rule, facts: Facts, options: EvaluateOptions): RuleResult {
  if (options.trace) return tracedRule(rule, facts);
  try {
    return { matched: truthy(applyLogic(rule.when, facts, "condition")) };
  } catch (error) {
    return errorResult(rule, error);
  }
}

function errorResult(rule: Rule, error: unknown): RuleResult {
  return { matched: rule.decision !== "allow", error: error instanceof Error ? error.message : String(error) };
}

/** The same evaluation, recording what each comparison saw (src/core/policy/trace.ts). */
function tracedRule(rule: Rule, facts: Facts): RuleResult {
  const run = applyLogicTraced(rule.when, facts, "condition");
  const result = "error" in run ? errorResult(rule, run.error) : { matched: truthy(run.value) };
  const state = result.error !== undefined ? "error" : result.matched ? "matched" : "not matched";
  const trace: RuleTrace = { rule: rule.id, decision: rule.decision, result: state, matched: result.matched, comparisons: run.comparisons };
  return { ...result, trace: result.error !== undefined ? { ...trace, error: result.error } : trace };
}

/** Every rule against one facts document (one transfer, or the transaction without transfers). */
export function evaluateFacts(bundle: PolicyBundle, facts: Facts, options: EvaluateOptions = {}): EvaluationTrace {
  const transfer = facts.transfer ? facts.transfer.index : null;
  const matched: RuleMatch[] = [];
  const errors: { rule: string; error: string }[] = [];
  const rules: RuleTrace[] = [];
  for (const rule of bundle.rules) {
    const result = evaluateRule(rule, facts, options);
    if (result.trace) rules.push(result.trace);
    if (result.error !== undefined) errors.push({ rule: rule.id, error: result.error });
    if (!result.matched) continue;
    if (result.error === undefined && reviewMet(bundle, rule, facts)) {
      // a met review: the defer rule counts as not matched, and its trace says so
      if (result.trace) Object.assign(result.trace, { result: "not matched", matched: false, reviewMet: true });
      continue;
    }
    matched.push({ rule: rule.id, decision: rule.decision, transfer, ...(result.error !== undefined ? { error: result.error } : {}) });
  }
  const ruled = mostSevere(matched.map((m) => m.decision));
  return { transfer, decision: ruled ?? safeDefault(bundle), matched, errors, byDefault: ruled === null, ...(options.trace ? { rules } : {}) };
}

/**
 * The transaction's outcome: deny if any evaluation denied, else defer if any deferred, else
 * allow. No facts at all (nothing to evaluate) never allows: the default decides.
 */
export function evaluate(bundle: PolicyBundle, facts: readonly Facts[], options: EvaluateOptions = {}): Outcome {
  const evaluations = facts.map((f) => evaluateFacts(bundle, f, options));
  const decision = mostSevere(evaluations.map((e) => e.decision)) ?? safeDefault(bundle);
  return {
    decision,
    reasons: decisionReasons(bundle, evaluations, decision),
    matched: evaluations.flatMap((e) => e.matched),
    evaluations,
    facts: [...facts],
  };
}
