/**
 * COUNTERSIGN_ASSET_PRICES: the operator's USD prices for assets the custody platform does not
 * price, a JSON object from asset resource name to a decimal string (`{"assets/erc20.…": "1.00"}`).
 * A string, not a JSON number: a number would be a float before countersign ever saw it.
 */
import { usdPrice } from "../core/facts/usd-price.js";
import { parseAssetPins, pinFor, type AssetPins } from "./asset-pins.js";

export type PricePins = AssetPins<string>;

export const pinnedPrice = (pins: PricePins, asset: string): string | undefined => pinFor(pins, asset);

const PRICES = {
  name: "COUNTERSIGN_ASSET_PRICES",
  expected: 'a USD price such as "1.00"',
  read: usdPrice,
  invalid: 'a price is a positive decimal written as a string ("1.00")',
};

export const parsePricePins = (text: string | undefined) => parseAssetPins(PRICES, text);
