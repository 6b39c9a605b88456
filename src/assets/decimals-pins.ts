/**
 * COUNTERSIGN_ASSET_DECIMALS: the operator's own statement of token decimals, a JSON object from
 * asset resource name to decimals (`{"assets/erc20.ethereum-mainnet.0xa0b8…eb48": 6}`). It lets a
 * deployment without the custody API check the amounts of the tokens it signs; with the API, a pin
 * that disagrees with the API's answer fails closed (decimals.ts). An EVM contract part is matched
 * whatever its case (a checksum), so a pin copied from a block explorer matches a lower-case body.
 */
import { canonicalAssetName } from "../core/chains/assets.js";
import { ASSET_NAME } from "../core/transaction/resource-names.js";

/** ERC-20 stores decimals in a uint8. */
export const MAX_ASSET_DECIMALS = 255;

/** Keyed by canonicalAssetName: look up with `pinnedDecimals`. */
export type DecimalsPins = ReadonlyMap<string, number>;

export const pinnedDecimals = (pins: DecimalsPins, asset: string): number | undefined => pins.get(canonicalAssetName(asset));

/** The pins, or the problems that make the setting unusable (reported with the rest of the configuration). */
export function parseDecimalsPins(text: string | undefined): { pins: DecimalsPins; problems: string[] } {
  const pins = new Map<string, number>();
  if (text === undefined || text.trim() === "") return { pins, problems: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { pins, problems: ["COUNTERSIGN_ASSET_DECIMALS: is not JSON (expected an object of asset name to decimals)"] };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    return { pins, problems: ["COUNTERSIGN_ASSET_DECIMALS: must be a JSON object of asset name to decimals"] };
  }
  const problems: string[] = [];
  for (const [asset, decimals] of Object.entries(parsed)) {
    if (!ASSET_NAME.test(asset)) problems.push(`COUNTERSIGN_ASSET_DECIMALS: "${asset}" is not an asset resource name (assets/{asset_id})`);
    else if (!Number.isInteger(decimals) || (decimals as number) < 0 || (decimals as number) > MAX_ASSET_DECIMALS) {
      problems.push(`COUNTERSIGN_ASSET_DECIMALS: ${asset}: decimals must be an integer from 0 to ${MAX_ASSET_DECIMALS}`);
    } else {
      const key = canonicalAssetName(asset);
      const earlier = pins.get(key);
      if (earlier !== undefined && earlier !== decimals) problems.push(`COUNTERSIGN_ASSET_DECIMALS: ${key} is pinned twice, to ${earlier} and ${decimals as number}`);
      else pins.set(key, decimals as number);
    }
  }
  return { pins, problems };
}
