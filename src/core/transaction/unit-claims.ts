/**
 * Amounts a body states twice for one transfer — whole units (`amount`) and smallest units
 * (`rawAmount`, or the amount word of the ERC-20 `transfer` calldata) — whose agreement depends on
 * the token's decimals, which the body does not state. The parser can only check that the two
 * agree at *some* decimals (0–18, amounts.ts); which decimals is a fact about the asset that the
 * decision step establishes (src/assets) before anything is decided. Until then the whole amount
 * the policy would read is unverified: `5` USDC beside a raw `5·10^18` means 5·10^12 USDC.
 */
import { knownDecimals } from "./amounts.js";
import { nativeDecimalsOf, statedSmallestUnits } from "../chains/registry.js";
import type { Transaction, Transfer } from "./types.js";

export interface UnitClaim {
  transferIndex: number;
  /** The asset as given (`assets/erc20.ethereum-mainnet.0x…`). */
  asset: string;
  /** Whole units, as the policy reads them. */
  amount: string;
  /** Smallest units, as the chain would move them. */
  rawAmount: string;
  /** Where the smallest-unit amount was stated. */
  statedBy: "rawAmount" | "evmCalldata" | "evmValue";
}

/** Every claim of `tx` that needs the asset's decimals to be checked (none for native coins or Stellar classic). */
export function unitClaims(tx: Transaction): UnitClaim[] {
  const claims: UnitClaim[] = [];
  // A chain object's amount was matched to the body's one transfer by the parser (else it is a
  // payload); a value sent, at ether's 18 there, is checked here at the coin's own decimals.
  const stated = tx.transfers.length === 1 ? statedSmallestUnits(tx.snapshot, tx.payloads) : [];
  for (const t of tx.transfers) {
    if (t.amount === null || knownDecimals(t, nativeDecimalsOf) !== null) continue;
    if (t.rawAmount !== null) {
      claims.push(claim(t, t.amount, t.rawAmount, "rawAmount"));
      continue;
    }
    const object = stated.find((s) => !s.nativeOnly || t.assetStandard === "native");
    if (object !== undefined) claims.push(claim(t, t.amount, object.raw, object.statedBy));
  }
  return claims;
}

function claim(t: Transfer, amount: string, rawAmount: string, statedBy: UnitClaim["statedBy"]): UnitClaim {
  return { transferIndex: t.index, asset: t.asset, amount, rawAmount, statedBy };
}
