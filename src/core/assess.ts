/**
 * Facts and evaluation for one transaction, given everything gathered: the pure core that the
 * webhook, `/v1/evaluate`, `explain` and `policy check` share.
 */
import type { AddressBookView } from "./addressbook/types.js";
import { buildFacts, buildTransferFacts } from "./facts/build.js";
import { groupKey } from "./facts/group-keys.js";
import type { Facts, TransferFacts, WindowTotal, WindowTotals } from "./facts/types.js";
import { windowTotalId, type WindowQuery } from "./facts/window-query.js";
import { evaluate, type EvaluateOptions } from "./policy/evaluate.js";
import type { Outcome, PolicyBundle } from "./policy/types.js";
import type { ReviewFacts } from "./review/types.js";
import type { Transaction } from "./transaction/types.js";
import { NO_PRICES, type PriceBook } from "./facts/dollars.js";

export interface Situation {
  tx: Transaction;
  now: Date;
  addressBook: AddressBookView;
  /** Built once from tx and addressBook: both the velocity plan and the facts read them. */
  transfers: readonly TransferFacts[];
  /** The transaction's review for this content (src/review); none when omitted. */
  review?: ReviewFacts;
  /** The USD prices gathered for this decision (src/decision/prices.ts). */
  prices: PriceBook;
}

export function situationOf(tx: Transaction, now: Date, addressBook: AddressBookView, prices: PriceBook = NO_PRICES): Situation {
  return { tx, now, addressBook, transfers: buildTransferFacts(tx, addressBook, prices), prices };
}

/** One velocity charge per transfer and distinct group key. */
export interface PlannedCharge {
  transferIndex: number;
  key: string;
  amount: string | null;
  /** transfer.usd: the dollars a `usd` window counts, recorded so a void subtracts exactly them. */
  usd: string | null;
  /** transfer.asset, recorded so usage is shown per asset. */
  asset: string;
}

export interface VelocityPlan {
  /** Distinct group keys, sorted: the lock order. */
  keys: string[];
  queries: WindowQuery[];
  charges: PlannedCharge[];
}

/** Which window groups the transaction touches; needs no totals. */
export function planVelocity(bundle: PolicyBundle, situation: Situation): VelocityPlan {
  if (bundle.windows.length === 0 || situation.tx.transfers.length === 0) return { keys: [], queries: [], charges: [] };
  const queries = new Map<string, WindowQuery>();
  const charges = new Map<string, PlannedCharge>();
  for (const transfer of situation.transfers) {
    for (const window of bundle.windows) {
      const key = groupKey(window, situation.tx, transfer);
      queries.set(windowTotalId(window.name, key), { window: window.name, key, durationSeconds: window.durationSeconds });
      charges.set(`${transfer.index}\u0000${key}`, { transferIndex: transfer.index, key, amount: transfer.amount, usd: transfer.usd, asset: transfer.asset });
    }
  }
  const keys = [...new Set([...queries.values()].map((q) => q.key))].sort();
  return { keys, queries: [...queries.values()], charges: [...charges.values()] };
}

/** The ledger's answer (by `windowTotalId`) as the facts builder reads it: window → group key → total. */
export function totalsByWindow(queries: readonly WindowQuery[], read: ReadonlyMap<string, WindowTotal>): WindowTotals {
  const nested = new Map<string, Map<string, WindowTotal>>();
  for (const q of queries) {
    const total = read.get(windowTotalId(q.window, q.key));
    if (!total) continue;
    if (!nested.has(q.window)) nested.set(q.window, new Map());
    nested.get(q.window)!.set(q.key, total);
  }
  return nested;
}

export function factsFor(bundle: PolicyBundle, situation: Situation, totals: WindowTotals): Facts[] {
  return buildFacts({
    tx: situation.tx,
    now: situation.now,
    addressBook: situation.addressBook,
    windows: bundle.windows,
    totals,
    transfers: situation.transfers,
    prices: situation.prices,
    ...(situation.review ? { review: situation.review } : {}),
  });
}

export function assess(bundle: PolicyBundle, situation: Situation, totals: WindowTotals, options: EvaluateOptions = {}): Outcome {
  return evaluate(bundle, factsFor(bundle, situation, totals), options);
}
