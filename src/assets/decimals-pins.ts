/**
 * COUNTERSIGN_ASSET_DECIMALS: the operator's own statement of token decimals, a JSON object from
 * asset resource name to decimals (`{"assets/erc20.ethereum-mainnet.0xa0b8…eb48": 6}`). It lets a
 * deployment without the custody API check the amounts of the tokens it signs; with the API, a pin
 * that disagrees with the API's answer fails closed (decimals.ts).
 */
import { parseAssetPins, pinFor, type AssetPins } from "./asset-pins.js";

/** ERC-20 stores decimals in a uint8. */
export const MAX_ASSET_DECIMALS = 255;

export type DecimalsPins = AssetPins<number>;

export const pinnedDecimals = (pins: DecimalsPins, asset: string): number | undefined => pinFor(pins, asset);

const DECIMALS = {
  name: "COUNTERSIGN_ASSET_DECIMALS",
  expected: "decimals",
  read: (value: unknown) => (Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_ASSET_DECIMALS ? (value as number) : null),
  invalid: `decimals must be an integer from 0 to ${MAX_ASSET_DECIMALS}`,
};

export const parseDecimalsPins = (text: string | undefined) => parseAssetPins(DECIMALS, text);
