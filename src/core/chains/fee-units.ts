/** A fee counted in a native coin's smallest units, in whole units of that coin. */
import Big from "big.js";
import type { Fee } from "../transaction/types.js";
import { nativeAsset } from "./networks.js";

/** Exact decimals with a private configuration: never touch big.js's global settings. */
const Dec = Big();
Dec.strict = true;

export function inWholeUnits(smallest: string, decimals: number, network: string | null): Fee {
  // Dividing an integer by 10^decimals (at most 18) is exact within big.js's 20 places.
  return { asset: network === null ? null : nativeAsset(network), amount: new Dec(smallest).div(new Dec("10").pow(decimals)).toFixed() };
}
