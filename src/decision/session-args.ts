/**
 * What the decision's two database calls take and give (src/decision/session.ts), built from and
 * read into the decision path's own values: the window pieces and lock order of src/velocity, the
 * row records of src/audit and src/review.
 */
import { decisionRecord, type DecisionRow } from "../audit/decision-rows.js";
import type { WindowTotal } from "../core/facts/types.js";
import { windowTotalId, type WindowQuery } from "../core/facts/window-query.js";
import { FAILED_TRANSACTION_STATES } from "../events/effects.js";
import { actionRecord, reviewRecord, type ReviewAction, type StoredReview } from "../review/store.js";
import { groupHashHex, lockIdOfHash } from "../velocity/group-hash.js";
import { addTotals, piecesOf, toTotal } from "../velocity/read.js";
import { BUCKET_WIDTHS } from "../velocity/window-plan.js";
import type { ReadArgs, ReadResult } from "./session-types.js";

/** The failed states as a Postgres text[] literal: plain identifiers, so nothing needs quoting. */
const FAILED_STATES = `{${[...FAILED_TRANSACTION_STATES]
  .map((state) => {
    if (!/^[A-Z_]+$/.test(state)) throw new Error(`transaction state ${state} is not a plain identifier`);
    return state;
  })
  .join(",")}}`;

export function readArgs(name: string, lockKeys: readonly string[], queries: readonly WindowQuery[], now: Date, evaluate: boolean): ReadArgs {
  const { hashes, bucket: b, edge: e } = piecesOf(queries, now, BUCKET_WIDTHS);
  // A lock key is usually a window query's key too, whose hash piecesOf has just taken.
  const hashOf = new Map(queries.map((q, ord) => [q.key, hashes[ord]!]));
  const ids = [...new Set(lockKeys.map((key) => lockIdOfHash(hashOf.get(key) ?? groupHashHex(key))))].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  return {
    name,
    failedStates: FAILED_STATES,
    evaluate,
    locks: `{${ids.join(",")}}`,
    hashes,
    buckets: b.ord.map((ord, i) => ({ ord, width: b.width[i]!, from_at: b.from[i]!, until_at: b.until[i]! })),
    edges: e.ord.map((ord, i) => ({ ord, after_at: e.after[i]!, until_at: e.until[i]! })),
  };
}

/**
 * The totals read, by windowTotalId, as readWindowTotals returns them: each query's pieces added up.
 * Every query must have come back with its pieces: a window missing from the read would count as
 * empty and could approve past its limit, so that is an error (the decision is not made), never a zero.
 */
export function totalsRead(read: ReadResult, queries: readonly WindowQuery[]): Map<string, WindowTotal> {
  const byOrd = new Map<number, WindowTotal>();
  (read.total_ords ?? []).forEach((ord, i) => {
    const piece = toTotal({ amount: read.total_amounts?.[i] ?? "", count: read.total_counts?.[i] ?? "", usd: read.total_usds?.[i] ?? "" });
    const sum = byOrd.get(ord);
    byOrd.set(ord, sum ? addTotals(sum, piece) : piece);
  });
  const totals = new Map<string, WindowTotal>();
  queries.forEach((query, ord) => {
    const total = byOrd.get(ord);
    if (!total) throw new Error(`the decision read returned no total for window ${query.window}`);
    totals.set(windowTotalId(query.window, query.key), total);
  });
  return totals;
}

export interface ChargeWrite {
  transferIndex: number;
  key: string;
  amount: string | null;
  /** Dollars at the decision's price; null or omitted when it had none. */
  usd?: string | null;
  /** The transfer's asset (transfer.asset). */
  asset?: string;
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
  // Each group's hash once, however many of the decision's charges fall in it.
  const hashOf = new Map<string, string>();
  const charges = (w.charges ?? []).map((c) => {
    if (c.amount !== null && !PLAIN_DECIMAL.test(c.amount)) throw new Error("charge amount is not a plain decimal");
    if (c.usd != null && !PLAIN_DECIMAL.test(c.usd)) throw new Error("charge dollars are not a plain decimal");
    let hash = hashOf.get(c.key);
    if (hash === undefined) hashOf.set(c.key, (hash = groupHashHex(c.key)));
    return { transfer_index: c.transferIndex, hash, amount: c.amount, usd: c.usd ?? null, asset: c.asset ?? null };
  });
  const groups = [...hashOf].map(([key, hash]) => ({ hash, key }));
  return {
    decision: decisionRecord(d),
    review: w.review ? reviewRecord(w.review) : null,
    actions: (w.actions ?? []).map(actionRecord),
    groups,
    charges,
    widths: [...BUCKET_WIDTHS],
  };
}
