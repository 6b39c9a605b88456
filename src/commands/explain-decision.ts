/**
 * `countersign explain --decision ID`: the trace of a recorded decision, from its row — every rule
 * per transfer with its comparisons' operand values, as `explain FILE` prints them. A row the
 * policy did not evaluate (a repeat, a conflict, a decision made outright) has no trace: its
 * matched rules are shown. A row evaluated by a shadow candidate (COUNTERSIGN_SHADOW_POLICIES)
 * also shows what the candidate said.
 */
import type { Db } from "../db/connect.js";
import type { Facts } from "../facts/types.js";
import type { Decision, EvaluationTrace, RuleMatch } from "../policy/types.js";
import { printTrace } from "./explain-trace.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function explainDecision(db: Db, id: string, options: { json: boolean }, out: (line: string) => void): Promise<number> {
  if (!UUID.test(id)) {
    out(`${JSON.stringify(id)} is not a decision id (a UUID)`);
    return 2;
  }
  const row = await db
    .selectFrom("decisions")
    .select(["id", "transaction_name", "decided_at", "decision", "replayed", "replay_of", "policy_version", "policy_digest", "reasons", "matched_rules", "facts", "trace"])
    .select(["shadow_policy_version", "shadow_policy_digest", "shadow_decision", "shadow_matched_rules", "shadow_error"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) {
    out(`no decision ${id}`);
    return 1;
  }
  const facts = (row.facts ?? []) as Facts[];
  const evaluations = (row.trace as EvaluationTrace[] | null) ?? matchedOnly(row.matched_rules as RuleMatch[]);
  const view = { decision: row.decision, policyVersion: row.policy_version, reasons: row.reasons as string[], evaluations, facts };
  const shadow = shadowOf(row);
  if (options.json) {
    out(JSON.stringify({ id: row.id, transactionName: row.transaction_name, decidedAt: row.decided_at, policyDigest: row.policy_digest, ...view, shadow }, null, 2));
    return 0;
  }
  out(`decision ${row.id}: ${row.transaction_name} at ${new Date(row.decided_at).toISOString()}`);
  if (row.replayed || row.replay_of) out(`  a repeat of decision ${row.replay_of ?? "(unknown)"}: its trace is that decision's`);
  printTrace(view, out);
  if (shadow) printShadow(shadow, row.decision, out);
  return 0;
}

interface ShadowView {
  policyVersion: string;
  policyDigest: string;
  decision: Decision | null;
  matchedRules: RuleMatch[];
  error: string | null;
}

interface ShadowColumns {
  shadow_policy_version: string | null;
  shadow_policy_digest: string | null;
  shadow_decision: Decision | null;
  shadow_matched_rules: unknown;
  shadow_error: string | null;
}

/** What the shadow candidate said on the same facts, or null when none was evaluated beside it. */
function shadowOf(row: ShadowColumns): ShadowView | null {
  if (row.shadow_policy_digest === null) return null;
  return {
    policyVersion: row.shadow_policy_version ?? "(unknown)",
    policyDigest: row.shadow_policy_digest,
    decision: row.shadow_decision,
    matchedRules: (row.shadow_matched_rules as RuleMatch[] | null) ?? [],
    error: row.shadow_error,
  };
}

function printShadow(shadow: ShadowView, live: string, out: (line: string) => void): void {
  const said = shadow.decision ?? `error: ${shadow.error ?? "(none recorded)"}`;
  out(`shadow: ${said} (candidate ${shadow.policyVersion}; ${shadow.decision === live ? "agrees with" : "differs from"} the live ${live})`);
  for (const m of shadow.matchedRules) out(`  matched ${m.decision} ${m.rule}${m.transfer === null ? "" : ` (transfer ${m.transfer})`}`);
}

function matchedOnly(matched: RuleMatch[]): EvaluationTrace[] {
  const byTransfer = new Map<number | null, RuleMatch[]>();
  for (const m of matched) byTransfer.set(m.transfer, [...(byTransfer.get(m.transfer) ?? []), m]);
  return [...byTransfer].map(([transfer, ms]) => ({ transfer, decision: ms[0]!.decision, matched: ms, errors: [], byDefault: false }));
}
