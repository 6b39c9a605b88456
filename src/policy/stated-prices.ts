/**
 * A policy test case's or `explain`'s stated USD prices (`prices: {asset: usd}`), as a PriceBook:
 * offline, the prices a case decides with are the ones it states, never the platform's. A price is
 * a positive decimal written as a string, as COUNTERSIGN_ASSET_PRICES takes it.
 */
import { z } from "zod";
import { usdPrice } from "../core/facts/usd-price.js";
import { canonicalAssetName } from "../core/chains/assets.js";
import type { PriceBook } from "../core/facts/dollars.js";
import { ASSET_NAME } from "../core/transaction/resource-names.js";

export const statedPricesSchema = z.record(
  z.string().regex(ASSET_NAME, "a price is keyed by an asset resource name (assets/{asset_id})"),
  z.string().refine((p) => usdPrice(p) !== null, 'a price is a positive decimal written as a string ("1.00")'),
);

export function statedPrices(prices: Readonly<Record<string, string>> | undefined): PriceBook {
  return new Map(Object.entries(prices ?? {}).map(([asset, price]) => [canonicalAssetName(asset), usdPrice(price)!]));
}
