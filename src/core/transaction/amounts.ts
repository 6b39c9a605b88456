/**
 * Whole units against smallest units. A body states decimals only for a few assets (a Stellar
 * classic asset has 7; native coins have their family's, which the caller looks up in src/core/chains/registry.ts); for any other token, an amount and a raw
 * amount agree only when the raw amount is the amount at some decimals from 0 to 18, the range
 * token contracts use. A pair further apart (`1` and `10^23`) is a contradiction.
 */
import Big from "big.js";
import type { Transfer } from "./types.js";

/** Exact decimals with a private configuration: never touch big.js's global settings. */
const Dec = Big();
Dec.strict = true;

export const MAX_TOKEN_DECIMALS = 18;

/**
 * The decimals of a network's native coin where its family fixes them (registry.ts `nativeDecimalsOf`),
 * handed in so that a family's own checks can ask it without importing the registry of all families.
 */
export type NativeDecimals = (network: string) => number | null;

/** The decimals the asset is known to have, or null when the body does not say. */
export function knownDecimals(t: Pick<Transfer, "assetStandard" | "network">, nativeDecimalsOf: NativeDecimals): number | null {
  if (t.assetStandard === "stellarClassic") return 7;
  if (t.assetStandard !== "native" || t.network === null) return null;
  return nativeDecimalsOf(t.network);
}

/** Whether `rawAmount` is `amount` in smallest units, at the asset's decimals (or at some 0–18 when unknown). */
export function amountsAgree(amount: string, rawAmount: string, decimals: number | null): boolean {
  const whole = new Dec(amount);
  const raw = new Dec(rawAmount);
  if (decimals !== null) return whole.times(new Dec("10").pow(decimals)).eq(raw);
  for (let d = 0; d <= MAX_TOKEN_DECIMALS; d++) {
    if (whole.times(new Dec("10").pow(d)).eq(raw)) return true;
  }
  return false;
}

export const sameDecimal = (a: string, b: string): boolean => new Dec(a).eq(new Dec(b));

/** Whether a transfer's raw amount is `rawAmount`, by its own raw amount or else its amount. */
export function transferMovesRaw(t: Transfer, rawAmount: string, nativeDecimalsOf: NativeDecimals): boolean {
  if (t.rawAmount !== null) return sameDecimal(t.rawAmount, rawAmount);
  return t.amount !== null && amountsAgree(t.amount, rawAmount, knownDecimals(t, nativeDecimalsOf));
}
