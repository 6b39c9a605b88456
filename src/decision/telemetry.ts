/**
 * What a decision tells telemetry: the `countersign.decision` span around decide() (its children,
 * made inside decide, are the facts, evaluation and audit-write spans) and the measure for the
 * decision metrics. Kept beside the decision path, which itself only names its steps; src/telemetry/
 * imports nothing of the decision path.
 */
import { SpanStatusCode, type Attributes } from "@opentelemetry/api";
import type { DecisionResult } from "./decide.js";
import type { ShadowVerdict } from "./shadow.js";
import type { Decision } from "../core/policy/types.js";
import type { DecisionMeasure, DeferCause } from "../telemetry/metrics.js";
import { traced } from "../telemetry/tracing.js";

export const DECISION_SPAN = "countersign.decision";

export async function traceDecision(tx: { name: string; vault: string }, requestId: string, decide: () => Promise<DecisionResult>): Promise<DecisionResult> {
  const start = { "countersign.transaction.name": tx.name, "countersign.vault": tx.vault, "countersign.request_id": requestId };
  return traced(
    DECISION_SPAN,
    async (span) => {
      const result = await decide();
      span.setAttributes(decisionAttributes(result));
      if (result.kind === "unavailable") span.setStatus({ code: SpanStatusCode.ERROR, message: "decision unavailable; deferred" });
      return result;
    },
    start,
  );
}

function decisionAttributes(result: DecisionResult): Attributes {
  if (result.kind === "refused") return { "countersign.decision": "refused", "countersign.error.code": result.error.code };
  if (result.kind === "unavailable") return { "countersign.decision": "unavailable", "countersign.defer.cause": result.cause ?? "unavailable" };
  const cause = deferCause(result);
  return {
    "countersign.decision": result.decision,
    "countersign.decision.id": result.decisionId,
    "countersign.decision.replayed": result.replayed,
    "countersign.policy.version": result.policyVersion,
    "countersign.policy.digest": result.policyDigest,
    "countersign.rules.matched": matchedRuleIds(result),
    ...(cause ? { "countersign.defer.cause": cause, "countersign.defer.reason": result.reasons.join("; ") } : {}),
  };
}

/** Distinct rule ids, in the order they matched. */
function matchedRuleIds(result: Extract<DecisionResult, { kind: "decided" }>, decision?: string): string[] {
  const matches = decision ? result.matchedRules.filter((m) => m.decision === decision) : result.matchedRules;
  return [...new Set(matches.map((m) => m.rule))];
}

function deferCause(result: Extract<DecisionResult, { kind: "decided" | "unavailable" }>): DeferCause | undefined {
  if (result.kind === "unavailable") return result.cause ?? "unavailable";
  if (result.decision !== "defer") return undefined;
  if (result.deferCause) return result.deferCause;
  return matchedRuleIds(result, "defer").length > 0 ? "policy_rule" : "policy_default";
}

export function decisionMeasure(result: DecisionResult, seconds: number): DecisionMeasure {
  if (result.kind === "refused") return { outcome: "refused", replayed: false, seconds };
  if (result.kind === "unavailable") return { outcome: "unavailable", replayed: false, seconds, deferCause: result.cause ?? "unavailable" };
  const cause = deferCause(result);
  const rule = cause === "policy_rule" ? matchedRuleIds(result, "defer")[0] : undefined;
  return {
    outcome: result.decision,
    replayed: result.replayed,
    seconds,
    ...(cause ? { deferCause: cause } : {}),
    ...(rule ? { deferRule: rule } : {}),
  };
}

/** A fresh decision the shadow candidate disagreed with: the live outcome and the shadow's. */
export interface ShadowDisagreement {
  live: Decision;
  shadow: ShadowVerdict;
}

export function shadowDisagreement(result: DecisionResult): ShadowDisagreement | null {
  if (result.kind !== "decided" || result.shadow === undefined || result.shadow === result.decision) return null;
  return { live: result.decision, shadow: result.shadow };
}
