/**
 * The trace as a reviewer reads it: per transfer, every rule as matched / not matched / error,
 * and under each rule the comparisons it made with their operands' values, e.g.
 * `velocity.daily_out.amountAfter = 120500 > 100000 → true`. Shared by `explain FILE` and
 * `explain --decision ID`.
 */
import type { Facts } from "../core/facts/types.js";
import type { EvaluationTrace, RuleTrace } from "../core/policy/types.js";
import type { Comparison } from "../core/policy/trace.js";

export interface TraceView {
  decision: string;
  policyVersion: string;
  reasons: readonly string[];
  evaluations: readonly EvaluationTrace[];
  facts: readonly Partial<Facts>[];
}

export function printTrace(view: TraceView, out: (line: string) => void): void {
  out(`decision: ${view.decision} (policy ${view.policyVersion})`);
  for (const reason of view.reasons) out(`  reason: ${reason}`);
  view.evaluations.forEach((evaluation, i) => {
    out(subject(view.facts[i]));
    out(`  -> ${evaluation.decision}${evaluation.byDefault ? " (default)" : ""}`);
    if (evaluation.rules) for (const rule of evaluation.rules) printRule(rule, out);
    else printMatchesOnly(evaluation, out);
  });
}

function subject(facts: Partial<Facts> | undefined): string {
  const t = facts?.transfer;
  if (!t) return "transaction (no transfers)";
  return `transfer ${t.index}: ${t.amount ?? `${t.rawAmount} (raw)`} ${t.asset} ${t.source.value} -> ${t.destination.value}`;
}

function printRule(rule: RuleTrace, out: (line: string) => void): void {
  const state = rule.result === "error" ? `error (counts as ${rule.matched ? "matched" : "not matched"})` : rule.reviewMet ? "not matched (review approved)" : rule.result;
  out(`  ${state} ${rule.decision} ${rule.rule}${rule.error ? `: ${rule.error}` : ""}`);
  for (const c of rule.comparisons) out(`      ${comparisonLine(c)}`);
}

export function comparisonLine(c: Comparison): string {
  return `${c.text} → ${c.error !== undefined ? `error: ${c.error}` : String(c.result)}`;
}

/** A row without a trace (a repeat, a conflict, an outright decision): only what matched, and the errors. */
function printMatchesOnly(evaluation: EvaluationTrace, out: (line: string) => void): void {
  for (const m of evaluation.matched) out(`  matched ${m.decision} ${m.rule}${m.error ? ` (evaluation error: ${m.error})` : ""}`);
  for (const e of evaluation.errors.filter((x) => !evaluation.matched.some((m) => m.rule === x.rule))) {
    out(`  not matched ${e.rule} (evaluation error: ${e.error})`);
  }
}
