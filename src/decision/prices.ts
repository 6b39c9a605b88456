/**
 * The prices one decision uses, gathered before any lock (docs/interface.md section 10): each
 * transfer's asset and the fee's native asset, when the live or the shadow bundle reads dollars.
 * What it found goes into the facts (a PriceBook) and, quote by quote, into the decision's record.
 */
import type { AssetPrices } from "../assets/prices.js";
import type { PriceQuote } from "../assets/usd-price.js";
import { canonicalAssetName } from "../chains/assets.js";
import { NO_PRICES, type PriceBook } from "../facts/dollars.js";
import type { TransferFacts } from "../facts/types.js";
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

/** Asked only when the live bundle or the shadow candidate reads dollars (readsDollars, shadowReadsDollars). */
export async function gatherPrices(prices: AssetPrices, tx: Transaction, transfers: readonly TransferFacts[]): Promise<Pricing> {
  const assets = pricedAssets(tx, transfers);
  if (assets.length === 0) return NO_PRICING;
  const answers = await prices.pricesOf(assets, tx.vault);
  const quotes: PriceQuote[] = [];
  let unavailable: string | null = null;
  for (const [asset, answer] of answers) {
    if (answer.known) quotes.push(answer.quote);
    else if (answer.unavailable) unavailable ??= `price unavailable for ${asset} (${answer.reason})`;
  }
  return { book: new Map(quotes.map((q) => [canonicalAssetName(q.asset), q.usd])), quotes, unavailable };
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
