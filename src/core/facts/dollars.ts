/**
 * The dollar facts (docs/interface.md section 10): an amount times its asset's USD price, exact
 * (big.js, no rounding), null when either is unknown, so that a rule reading it errs to the safe
 * side rather than compare a guess. Pure: the prices are an input, gathered before any lock.
 */
import Big from "big.js";
import { canonicalAssetName } from "../chains/assets.js";

/** USD per whole unit, by canonical asset name (src/chains/assets.ts): the prices a decision uses. */
export type PriceBook = ReadonlyMap<string, string>;

export const NO_PRICES: PriceBook = new Map();

/** A private big.js configuration, as in velocity.ts: strict, the global one left alone. */
const Dec = Big();
Dec.strict = true;

export const priceOf = (prices: PriceBook, asset: string | null): string | null => (asset === null ? null : (prices.get(canonicalAssetName(asset)) ?? null));

/** amount × price as a plain decimal string, or null when either is unknown. */
export function usdValue(amount: string | null, price: string | null): string | null {
  return amount === null || price === null ? null : new Dec(amount).times(price).toFixed();
}

/** The exact sum, or null when any part is unknown or there is none (a transaction without transfers moves no priced value). */
export function usdSum(values: readonly (string | null)[]): string | null {
  if (values.length === 0 || values.some((v) => v === null)) return null;
  return values.reduce((sum: Big, v) => sum.plus(v!), new Dec("0")).toFixed();
}
