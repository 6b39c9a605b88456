/**
 * What COUNTERSIGN_ASSET_DECIMALS and COUNTERSIGN_ASSET_PRICES have in common: a JSON object from
 * asset resource name to a value the operator states for that asset. Keyed by canonical asset name,
 * so a pin copied with an EVM checksum from a block explorer matches a lower-case body; an asset
 * pinned twice (two spellings of one asset) to different values makes the setting unusable.
 */
import { canonicalAssetName } from "../core/chains/assets.js";
import { ASSET_NAME } from "../core/transaction/resource-names.js";

/** Keyed by canonicalAssetName: look up with `pinFor`. */
export type AssetPins<T> = ReadonlyMap<string, T>;

export const pinFor = <T>(pins: AssetPins<T>, asset: string): T | undefined => pins.get(canonicalAssetName(asset));

export interface PinSetting<T> {
  /** The environment variable, named in every problem. */
  name: string;
  /** What one value looks like, for the problems that concern the whole object. */
  expected: string;
  /** The value as the pins keep it, or null when it is not one. */
  read: (value: unknown) => T | null;
  /** Why a value was refused. */
  invalid: string;
}

/** The pins, or the problems that make the setting unusable (reported with the rest of the configuration). */
export function parseAssetPins<T>(setting: PinSetting<T>, text: string | undefined): { pins: AssetPins<T>; problems: string[] } {
  const pins = new Map<string, T>();
  if (text === undefined || text.trim() === "") return { pins, problems: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { pins, problems: [`${setting.name}: is not JSON (expected an object of asset name to ${setting.expected})`] };
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    return { pins, problems: [`${setting.name}: must be a JSON object of asset name to ${setting.expected}`] };
  }
  const problems: string[] = [];
  for (const [asset, written] of Object.entries(parsed)) {
    const value = setting.read(written);
    if (!ASSET_NAME.test(asset)) problems.push(`${setting.name}: "${asset}" is not an asset resource name (assets/{asset_id})`);
    else if (value === null) problems.push(`${setting.name}: ${asset}: ${setting.invalid}`);
    else {
      const key = canonicalAssetName(asset);
      const earlier = pins.get(key);
      if (earlier !== undefined && earlier !== value) problems.push(`${setting.name}: ${key} is pinned twice, to ${String(earlier)} and ${String(value)}`);
      else pins.set(key, value);
    }
  }
  return { pins, problems };
}
