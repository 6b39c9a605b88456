/**
 * Amounts a body states twice for one transfer — whole units (`amount`) and smallest units
 * (`rawAmount`, or the amount word of the ERC-20 `transfer` calldata) — whose agreement depends on
 * the token's decimals, which the body does not state. The parser can only check that the two
 * agree at *some* decimals (0–18, amounts.ts); which decimals is a fact about the asset that the
 * decision step establishes (src/assets) before anything is decided. Until then the whole amount
 * the policy would read is unverified: `5` USDC beside a raw `5·10^18` means 5·10^12 USDC.
 */
import { erc20TransferRaw } from "../chains/evm/calldata.js";
import { knownDecimals } from "./amounts.js";
import { nativeDecimalsOf } from "../chains/registry.js";
import { isRecord } from "./transfer.js";
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
  const calldataRaw = tx.payloads.includes("evmCalldata") ? null : calldataAmount(tx.snapshot);
  const wei = tx.payloads.includes("evmValue") || tx.payloads.includes("evmCalldata") ? null : nativeValue(tx.snapshot);
  for (const t of tx.transfers) {
    if (t.amount === null || knownDecimals(t, nativeDecimalsOf) !== null) continue;
    if (t.rawAmount !== null) claims.push(claim(t, t.amount, t.rawAmount, "rawAmount"));
    // The calldata was matched to the one transfer by the parser (else it is an evmCalldata payload).
    else if (calldataRaw !== null && tx.transfers.length === 1) claims.push(claim(t, t.amount, calldataRaw, "evmCalldata"));
    // A native coin whose decimals the body does not say, sent as an EVM value: matched to the one
    // transfer at ether's 18 by the parser (chain-objects.ts), checked here at the coin's own.
    else if (wei !== null && tx.transfers.length === 1 && t.assetStandard === "native") claims.push(claim(t, t.amount, wei, "evmValue"));
  }
  return claims;
}

function claim(t: Transfer, amount: string, rawAmount: string, statedBy: UnitClaim["statedBy"]): UnitClaim {
  return { transferIndex: t.index, asset: t.asset, amount, rawAmount, statedBy };
}

function calldataAmount(snapshot: Record<string, unknown>): string | null {
  const evm = snapshot.evmTransaction;
  if (!isRecord(evm) || typeof evm.data !== "string") return null;
  return erc20TransferRaw(evm.data);
}

/** The wei an `evmTransaction` without calldata sends, or null when it sends none or carries calldata. */
function nativeValue(snapshot: Record<string, unknown>): string | null {
  const evm = snapshot.evmTransaction;
  if (!isRecord(evm) || typeof evm.value !== "string" || !/^[0-9]+$/.test(evm.value) || /^0+$/.test(evm.value)) return null;
  const data = typeof evm.data === "string" ? evm.data.replace(/^0x/, "") : "";
  return data === "" ? evm.value : null;
}
