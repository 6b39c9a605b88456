/**
 * The prices one decision uses, gathered before any lock (docs/interface.md section 10): each
 * transfer's asset and the fee's native asset, when the live or the shadow bundle reads dollars.
 * What it found goes into the facts (a PriceBook) and, quote by quote, into the decision's record.
 */
import type { AssetPrices } from "../assets/prices.js";
import { canonicalAssetName } from "../core/chains/assets.js";
import { NO_PRICING, pricedAssets, type Pricing } from "../core/facts/pricing.js";
import type { TransferFacts } from "../core/facts/types.js";
import type { PriceQuote } from "../core/facts/usd-price.js";
import type { Transaction } from "../core/transaction/types.js";

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
