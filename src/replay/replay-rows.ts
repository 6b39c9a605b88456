/**
 * Re-evaluating one page of recorded decisions with a candidate bundle, on the facts recorded with
 * each (time, address-book entry, window totals as they were). The evaluation is the same pure
 * function the webhook runs. A window the candidate declares is taken from the recorded facts when
 * the row's bundle had the very same window (name, duration, dimensions, measure); otherwise it is
 * recomputed from the charge ledger as of the decision's time; when the ledger cannot give it, the
 * decision is not replayable — it is never evaluated without it. Dollars are the ones recorded:
 * each transfer's `usd` at the price its decision used, each charge's at the price of its own.
 */
import type { Db } from "../database.js";
import type { Facts, TransferFacts, WindowFacts, WindowTotal } from "../core/facts/types.js";
import { groupKey } from "../core/facts/group-keys.js";
import { velocityFacts } from "../core/facts/velocity.js";
import { evaluate } from "../core/policy/evaluate.js";
import type { Outcome, PolicyBundle, WindowSpec } from "../core/policy/types.js";
import { dimensionSet, totalsAsOf, type AsOfQuery, DOLLARS_GAP } from "./ledger-as-of.js";
import { offlineOutcome } from "../core/facts/pricing.js";
import { NO_PRICES } from "../core/facts/dollars.js";
import type { RecordedDecision } from "./recorded.js";

export type RowResult = { kind: "replayed"; row: RecordedDecision; outcome: Outcome } | { kind: "not replayable"; row: RecordedDecision; reason: string };

/** When each dimension set's charge history starts to be complete (null: always). */
export type Coverage = ReadonlyMap<string, Date | null>;

export function sameWindow(a: WindowSpec, b: WindowSpec): boolean {
  return a.name === b.name && a.durationSeconds === b.durationSeconds && a.measure === b.measure && dimensionSet(a.groupBy) === dimensionSet(b.groupBy);
}

/** The candidate's windows that the row's recorded facts cannot stand for. */
export function windowsFromLedger(candidate: PolicyBundle, row: RecordedDecision): WindowSpec[] {
  const recorded = row.velocityWindows ?? [];
  return candidate.windows.filter((w) => !recorded.some((r) => sameWindow(r, w)));
}

interface Prepared {
  row: RecordedDecision;
  ledgerWindows: WindowSpec[];
  transfers: TransferFacts[];
  /** Index of this row's first query in the page's query list. */
  firstQuery: number;
}

export async function replayPage(db: Db, candidate: PolicyBundle, rows: readonly RecordedDecision[], coverage: Coverage): Promise<RowResult[]> {
  const queries: AsOfQuery[] = [];
  const prepared: (Prepared | RowResult)[] = rows.map((row) => prepare(candidate, row, coverage, queries));
  const totals = await totalsAsOf(db, queries);
  return prepared.map((p) => ("kind" in p ? p : finish(candidate, p, totals)));
}

function prepare(candidate: PolicyBundle, row: RecordedDecision, coverage: Coverage, queries: AsOfQuery[]): Prepared | RowResult {
  if (row.facts.length === 0) return { kind: "not replayable", row, reason: "no facts recorded (the decision was made without evaluating the policy)" };
  const transfers = row.facts.map((f) => f.transfer).filter((t): t is TransferFacts => t !== null);
  const ledgerWindows = transfers.length > 0 ? windowsFromLedger(candidate, row) : [];
  const firstQuery = queries.length;
  for (const w of ledgerWindows) {
    const gap = coverage.get(dimensionSet(w.groupBy)) ?? null;
    if (gap !== null && gap.getTime() > row.decidedAt.getTime() - w.durationSeconds * 1000) {
      return {
        kind: "not replayable",
        row,
        reason: `window ${w.name}: the charge ledger has no history grouped by [${[...w.groupBy].sort().join(", ")}] before ${gap.toISOString()}`,
      };
    }
    const unpriced = w.measure === "usd" ? (coverage.get(DOLLARS_GAP) ?? null) : null;
    if (unpriced !== null && unpriced.getTime() > row.decidedAt.getTime() - w.durationSeconds * 1000) {
      return {
        kind: "not replayable",
        row,
        reason: `window ${w.name}: the charge ledger has charges without dollars (decided before prices were looked up) until ${unpriced.toISOString()}`,
      };
    }
  }
  const tx = { vault: row.facts[0]!.tx.vault, initiator: row.facts[0]!.tx.initiator };
  for (const t of transfers) {
    for (const w of ledgerWindows) queries.push({ key: groupKey(w, tx, t), durationSeconds: w.durationSeconds, at: row.decidedAt, decisionId: row.id });
  }
  return { row, ledgerWindows, transfers, firstQuery };
}

function finish(candidate: PolicyBundle, p: Prepared, totals: readonly WindowTotal[]): RowResult {
  try {
    const facts = candidateFacts(candidate, p, totals);
    // As the service: a usd window that must charge a transfer the decision had no price for defers.
    return { kind: "replayed", row: p.row, outcome: offlineOutcome(candidate, NO_PRICES, p.transfers, evaluate(candidate, facts)) };
  } catch (error) {
    return { kind: "not replayable", row: p.row, reason: `recorded facts cannot be read: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The recorded documents, with `velocity` holding exactly the candidate's windows. */
function candidateFacts(candidate: PolicyBundle, p: Prepared, totals: readonly WindowTotal[]): Facts[] {
  const { row, ledgerWindows, transfers } = p;
  const tx = { vault: row.facts[0]!.tx.vault, initiator: row.facts[0]!.tx.initiator };
  const byWindow = new Map<string, Map<string, WindowTotal>>();
  let q = p.firstQuery;
  for (const t of transfers) {
    for (const w of ledgerWindows) {
      if (!byWindow.has(w.name)) byWindow.set(w.name, new Map());
      byWindow.get(w.name)!.set(groupKey(w, tx, t), totals[q++]!);
    }
  }
  const fromLedger = ledgerWindows.length > 0 ? velocityFacts(ledgerWindows, tx, transfers, byWindow) : [];
  let transferNo = 0;
  return row.facts.map((f) => {
    if (f.transfer === null) return { ...f, velocity: {} };
    const computed = fromLedger[transferNo++] ?? {};
    const velocity: Record<string, WindowFacts> = {};
    for (const w of candidate.windows) {
      const value = computed[w.name] ?? f.velocity[w.name];
      if (value === undefined) throw new Error(`window ${w.name} is missing from the recorded facts`);
      velocity[w.name] = value;
    }
    return { ...f, velocity };
  });
}
