/**
 * `countersign explain --decision ID`: the trace of a recorded decision, from its row — every rule
 * per transfer with its comparisons' operand values, as `explain FILE` prints them. A row the
 * policy did not evaluate (a repeat, a conflict, a decision made outright) has no trace: its
 * matched rules are shown. A row evaluated by a shadow candidate (COUNTERSIGN_SHADOW_POLICIES)
 * also shows what the candidate said.
 */
import { DECISION_ID, type DecisionView, type ShadowView } from "../audit/decision-view.js";
import type { Facts } from "../core/facts/types.js";
import type { EvaluationTrace, RuleMatch } from "../core/policy/types.js";
import { printTrace } from "./explain-trace.js";

/** Where the row is read: the database (readDecision), or the running service's GET /v1/decisions/{id}. */
export type DecisionReader = (id: string) => Promise<DecisionView | null>;

export async function explainDecision(read: DecisionReader, id: string, options: { json: boolean }, out: (line: string) => void): Promise<number> {
  if (!DECISION_ID.test(id)) {
    out(`${JSON.stringify(id)} is not a decision id (a UUID)`);
    return 2;
  }
  const row = await read(id);
  if (!row) {
    out(`no decision ${id}`);
    return 1;
  }
  const facts = row.facts as Facts[];
  const evaluations = (row.trace as EvaluationTrace[] | null) ?? matchedOnly(row.matchedRules);
  const view = { decision: row.decision, policyVersion: row.policyVersion, reasons: row.reasons, evaluations, facts };
  if (options.json) {
    out(
      JSON.stringify(
        { id: row.id, transactionName: row.transactionName, decidedAt: row.decidedAt, policyDigest: row.policyDigest, ...view, shadow: row.shadow, prices: row.prices },
        null,
        2,
      ),
    );
    return 0;
  }
  out(`decision ${row.id}: ${row.transactionName} at ${row.decidedAt}`);
  if (row.replayed || row.replayOf) out(`  a repeat of decision ${row.replayOf ?? "(unknown)"}: its trace is that decision's`);
  for (const p of row.prices ?? []) out(`  price ${p.asset}: $${p.usd} (${p.source === "pin" ? "COUNTERSIGN_ASSET_PRICES pin" : "custody platform"}, fetched ${p.fetchedAt})`);
  printTrace(view, out);
  if (row.shadow) printShadow(row.shadow, row.decision, out);
  return 0;
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
