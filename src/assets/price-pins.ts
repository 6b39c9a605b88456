/**
 * COUNTERSIGN_ASSET_PRICES: the operator's USD prices for assets the custody platform does not
 * price, a JSON object from asset resource name to a decimal string (`{"assets/erc20.…": "1.00"}`).
 * A string, not a JSON number: a number would be a float before countersign ever saw it. Keyed by
 * canonical asset name, so a pin copied with an EVM checksum matches a lower-case body.
 */
import { canonicalAssetName } from "../core/chains/assets.js";
import { ASSET_NAME } from "../core/transaction/resource-names.js";
import { usdPrice } from "../core/facts/usd-price.js";
/** Keyed by canonicalAssetName: look up with `pinnedPrice`. */
export type PricePins = ReadonlyMap<string, string>;

export const pinnedPrice = (pins: PricePins, asset: string): string | undefined => pins.get(canonicalAssetName(asset));

const SETTING = "COUNTERSIGN_ASSET_PRICES";

/** The pins, or the problems that make the setting unusable (reported with the rest of the configuration). */
export function parsePricePins(text: string | undefined): { pins: PricePins; problems: string[] } {
  const pins = new Map<string, string>();
  if (text === undefined || text.trim() === "") return { pins, problems: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { pins, problems: [`${SETTING}: is not JSON (expected an object of asset name to a USD price such as "1.00")`] };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    return { pins, problems: [`${SETTING}: must be a JSON object of asset name to a USD price such as "1.00"`] };
  }
  const problems: string[] = [];
  for (const [asset, written] of Object.entries(parsed)) {
    const price = usdPrice(written);
    if (!ASSET_NAME.test(asset)) problems.push(`${SETTING}: "${asset}" is not an asset resource name (assets/{asset_id})`);
    else if (price === null) problems.push(`${SETTING}: ${asset}: a price is a positive decimal written as a string ("1.00")`);
    else {
      const key = canonicalAssetName(asset);
      const earlier = pins.get(key);
      if (earlier !== undefined && earlier !== price) problems.push(`${SETTING}: ${key} is pinned twice, to ${earlier} and ${price}`);
      else pins.set(key, price);
    }
  }
  return { pins, problems };
}
