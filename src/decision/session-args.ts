/**
 * What the decision's two database calls take and give (src/decision/session.ts), built from and
 * read into the decision path's own values: the window pieces and lock order of src/velocity, the
 * row records of src/audit and src/review.
 */
import { decisionRecord, type DecisionRow } from "../audit/decision-rows.js";
import { FAILED_TRANSACTION_STATES } from "../events/effects.js";
import { actionRecord, reviewRecord, type ReviewAction, type StoredReview } from "../review/store.js";
import { groupHashHex, groupLockId } from "../velocity/group-hash.js";
import { piecesOf, toTotal, windowTotalId, type WindowQuery, type WindowTotal } from "../velocity/read.js";
import { BUCKET_WIDTHS } from "../velocity/window-plan.js";
import type { ReadArgs, ReadResult } from "./session.js";

export function readArgs(name: string, lockKeys: readonly string[], queries: readonly WindowQuery[], now: Date, evaluate: boolean): ReadArgs {
  const p = piecesOf(queries, now, BUCKET_WIDTHS);
  const ids = [...new Set(lockKeys.map(groupLockId))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return {
    name,
    failedStates: [...FAILED_TRANSACTION_STATES],
    evaluate,
    locks: ids.map(String),
    buckets: p.bucket.ord.map((ord, i) => ({ ord, hash: p.bucket.hash[i]!, width: p.bucket.width[i]!, from_at: p.bucket.from[i]!, until_at: p.bucket.until[i]! })),
    edges: p.edge.ord.map((ord, i) => ({ ord, hash: p.edge.hash[i]!, after_at: p.edge.after[i]!, until_at: p.edge.until[i]! })),
  };
}

/** The totals read, by windowTotalId, as readWindowTotals returns them. */
export function totalsRead(read: ReadResult, queries: readonly WindowQuery[]): Map<string, WindowTotal> {
  const totals = new Map<string, WindowTotal>();
  for (const row of read.totals ?? []) {
    const query = queries[row.ord];
    if (query) totals.set(windowTotalId(query.window, query.key), toTotal(row));
  }
  return totals;
}

export interface ChargeWrite {
  transferIndex: number;
  key: string;
  amount: string | null;
}

const PLAIN_DECIMAL = /^[0-9]+(\.[0-9]+)?$/;

export interface WriteParts {
  decision: DecisionRow;
  review?: StoredReview | null;
  actions?: readonly ReviewAction[];
  charges?: readonly ChargeWrite[];
}

/** The argument of countersign_decision_write: one decision row and what it brings with it. */
export function writeArgs(w: WriteParts): Record<string, unknown> {
  const d = w.decision;
  const charges = (w.charges ?? []).map((c) => {
    if (c.amount !== null && !PLAIN_DECIMAL.test(c.amount)) throw new Error("charge amount is not a plain decimal");
    return { transfer_index: c.transferIndex, hash: groupHashHex(c.key), amount: c.amount };
  });
  const groups = [...new Set((w.charges ?? []).map((c) => c.key))].map((key) => ({ hash: groupHashHex(key), key }));
  return {
    decision: decisionRecord(d),
    review: w.review ? reviewRecord(w.review) : null,
    actions: (w.actions ?? []).map(actionRecord),
    groups,
    charges,
    widths: [...BUCKET_WIDTHS],
  };
}
