/**
 * buildFacts: the facts documents of one transaction (docs/interface.md section 4), one per transfer in
 * order, or a single one with `transfer: null` when it has none. PURE: the clock, the address-book
 * copy and the window totals are all inputs, so `explain`, `policy check` and replays call the same
 * function as the webhook. Throws only on a corrupt window total (an internal error: defer).
 */
import type { AddressBookView } from "../addressbook/types.js";
import type { WindowSpec } from "../policy/types.js";
import { NO_REVIEW, type ReviewFacts } from "../review/types.js";
import type { Transaction } from "../transaction/types.js";
import { addressBookFacts, viewForVault } from "./address-book.js";
import { timeFacts } from "./time.js";
import { buildTransferFacts, txFacts } from "./transfer-facts.js";
import type { PriceBook } from "./dollars.js";
import type { Facts, TransferFacts, WindowTotals } from "./types.js";
import { velocityFacts } from "./velocity.js";

export interface FactsInput {
  tx: Transaction;
  now: Date;
  addressBook: AddressBookView;
  windows: readonly WindowSpec[];
  /** Approved totals before this transaction; a missing window or group key reads as zero. */
  totals: WindowTotals;
  /** The transaction's transfer facts when the caller already built them (buildTransferFacts). */
  transfers?: readonly TransferFacts[];
  /** The transaction's review for this content; none when omitted. */
  review?: ReviewFacts;
  /** The USD prices gathered for this decision; none known when omitted. */
  prices?: PriceBook;
}

export function buildFacts(input: FactsInput): Facts[] {
  const { tx, now, windows, totals } = input;
  const time = timeFacts(now);
  const transfers = input.transfers ?? buildTransferFacts(tx, input.addressBook, input.prices);
  const txPart = txFacts(tx, input.addressBook, transfers, input.prices);
  const addressBook = addressBookFacts(viewForVault(input.addressBook, tx.vault), now);
  const review = (): ReviewFacts => ({ ...(input.review ?? NO_REVIEW), approvers: [...(input.review ?? NO_REVIEW).approvers] });
  if (transfers.length === 0) {
    return [{ ...time, tx: txPart, transfer: null, velocity: {}, addressBook, review: review() }];
  }
  const velocity = velocityFacts(windows, tx, transfers, totals);
  return transfers.map((transfer, i) => ({
    ...time,
    // Each document is stored and evaluated on its own: no shared mutable parts between them.
    tx: { ...txPart, designatedSigners: [...txPart.designatedSigners] },
    transfer,
    velocity: velocity[i] ?? {},
    addressBook: { ...addressBook },
    review: review(),
  }));
}

export type { WindowTotal, WindowTotals } from "./types.js";
export { buildTransferFacts } from "./transfer-facts.js";
