/**
 * The prices a decision found and what they mean for it (docs/interface.md section 10): whether a
 * bundle that reads dollars can decide on them, offline as in the service. Pure: the prices are
 * gathered by src/decision/prices.ts before any lock.
 */
import { canonicalAssetName } from "../chains/assets.js";
import { NO_PRICES, type PriceBook } from "./dollars.js";
import type { TransferFacts } from "./types.js";
import type { PriceQuote } from "./usd-price.js";
import { readsDollars } from "../policy/reads-dollars.js";
import type { Outcome, PolicyBundle, WindowSpec } from "../policy/types.js";
import type { Transaction } from "../transaction/types.js";

export interface Pricing {
  book: PriceBook;
  /** Every price found, as recorded with the decision. */
  quotes: PriceQuote[];
  /** Why a price could not be asked for (the platform is down): the live bundle's decision defers. */
  unavailable: string | null;
}

export const NO_PRICING: Pricing = { book: NO_PRICES, quotes: [], unavailable: null };

/** The assets a transaction's dollar facts need priced: its transfers' and its fee's. */
export function pricedAssets(tx: Transaction, transfers: readonly TransferFacts[]): string[] {
  const assets = [...transfers.map((t) => t.asset), ...(tx.fee?.asset ? [tx.fee.asset] : [])];
  return [...new Map(assets.map((a) => [canonicalAssetName(a), a])).values()];
}

/**
 * Why the live bundle cannot decide on these prices, or null: the platform could not be asked, or
 * a `usd` window must charge a transfer that has no dollar value (its charge would count nothing,
 * and the window could be passed by any amount of that asset).
 */
export function priceHold(bundle: PolicyBundle, pricing: Pricing, transfers: readonly TransferFacts[]): string | null {
  if (!readsDollars(bundle)) return null;
  if (pricing.unavailable !== null) return pricing.unavailable;
  return usdWindows(bundle.windows) ? unpricedTransfer(transfers) : null;
}

/**
 * Offline (`policy check`, `explain`), with stated prices: the outcome the service would answer,
 * which defers before any rule when a usd window must charge a transfer without a price.
 */
export function offlineOutcome(bundle: PolicyBundle, book: PriceBook, transfers: readonly TransferFacts[], evaluated: Outcome): Outcome {
  const unpriced = priceHold(bundle, { book, quotes: [], unavailable: null }, transfers);
  return unpriced === null ? evaluated : { ...evaluated, decision: "defer", reasons: [unpriced], matched: [] };
}

const usdWindows = (windows: readonly WindowSpec[]): boolean => windows.some((w) => w.measure === "usd");

function unpricedTransfer(transfers: readonly TransferFacts[]): string | null {
  const unpriced = transfers.find((t) => t.usd === null);
  if (!unpriced) return null;
  return unpriced.usdPrice === null ? `price unknown for ${unpriced.asset}` : `the dollar value of transfer ${unpriced.index} is unknown (its amount in whole units is not known)`;
}
