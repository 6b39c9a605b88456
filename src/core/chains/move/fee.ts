/**
 * `suiTransaction.gasBudget`: the most it can pay, in MIST (`gasPrice` is checked, not read:
 * whatever the price, the charge stops at the budget); `aptosTransaction`: the most it can pay,
 * `maxGasAmount` × `gasUnitPrice`, in octas (one without the other states none). Unread, a
 * redelivery raising a Sui gas budget a thousandfold would be a repeat of the first allow.
 */
import { z } from "zod";
import { ok, type AppError, type Result } from "../../errors.js";
import { check } from "../../transaction/issues.js";
import { rawAmount } from "../../transaction/schemas.js";
import { at, isRecord } from "../../transaction/transfer.js";
import type { Fee } from "../../transaction/types.js";
import type { FeeReader } from "../family.js";
import { inWholeUnits } from "../fee-units.js";

/** MIST per SUI, octas per APT. */
export const SUI_DECIMALS = 9;
export const APTOS_DECIMALS = 8;

const suiFee = z.object({ gasBudget: rawAmount.nullish(), gasPrice: rawAmount.nullish() }).passthrough();
const aptosFee = z.object({ maxGasAmount: rawAmount.nullish(), gasUnitPrice: rawAmount.nullish() }).passthrough();

function suiMaxFee(snapshot: Record<string, unknown>, network: string | null, path: string): Result<Fee | null, AppError> {
  if (!isRecord(snapshot.suiTransaction)) return ok(null);
  const parsed = check(suiFee, snapshot.suiTransaction, at(path, "suiTransaction"));
  if (!parsed.ok) return parsed;
  const { gasBudget } = parsed.value;
  return ok(gasBudget == null ? null : inWholeUnits(gasBudget, SUI_DECIMALS, network));
}

function aptosMaxFee(snapshot: Record<string, unknown>, network: string | null, path: string): Result<Fee | null, AppError> {
  if (!isRecord(snapshot.aptosTransaction)) return ok(null);
  const parsed = check(aptosFee, snapshot.aptosTransaction, at(path, "aptosTransaction"));
  if (!parsed.ok) return parsed;
  const { maxGasAmount, gasUnitPrice } = parsed.value;
  if (maxGasAmount == null || gasUnitPrice == null) return ok(null);
  return ok(inWholeUnits((BigInt(maxGasAmount) * BigInt(gasUnitPrice)).toString(), APTOS_DECIMALS, network));
}

export const MOVE_FEES: readonly FeeReader[] = [
  { object: "suiTransaction", read: suiMaxFee },
  { object: "aptosTransaction", read: aptosMaxFee },
];
