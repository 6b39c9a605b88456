/**
 * `evmTransaction.fee`: the most it can pay, `gasLimit` (21,000 when not stated) × `maxFeePerGas`
 * (EIP-1559) or × `gasPrice` (legacy), the higher when both are stated, in wei. A
 * `maxPriorityFeePerGas` stated without them is the least it pays per gas (the maximum the platform
 * then sets is at least that), so it is read as the price: a priority fee of 21 ETH for a
 * transfer's gas must not be a null fee.
 */
import { z } from "zod";
import { ok, type AppError, type Result } from "../../errors.js";
import { check } from "../../transaction/issues.js";
import { rawAmount } from "../../transaction/schemas.js";
import { at, isRecord } from "../../transaction/transfer.js";
import type { Fee } from "../../transaction/types.js";
import type { FeeReader } from "../family.js";
import { inWholeUnits } from "../fee-units.js";
import { EVM_DECIMALS } from "./networks.js";

/** A 256-bit quantity as the API writes gas prices: `0x` and up to 64 hex digits. */
const hexQuantity = z.string({ error: "must be a string" }).regex(/^0x[0-9a-fA-F]{1,64}$/, "must be 0x and hex digits");

const evmFee = z
  .object({
    gasLimit: rawAmount.nullish(),
    maxFeePerGas: hexQuantity.nullish(),
    maxPriorityFeePerGas: hexQuantity.nullish(),
    gasPrice: hexQuantity.nullish(),
  })
  .passthrough();

/** The gas of a plain transfer, the least an EVM transaction uses. */
const MIN_EVM_GAS = "21000";

function evmMaxFee(snapshot: Record<string, unknown>, network: string | null, path: string): Result<Fee | null, AppError> {
  if (!isRecord(snapshot.evmTransaction) || snapshot.evmTransaction.fee == null) return ok(null);
  const parsed = check(evmFee, snapshot.evmTransaction.fee, at(path, "evmTransaction.fee"));
  if (!parsed.ok) return parsed;
  const { maxFeePerGas, maxPriorityFeePerGas, gasPrice, gasLimit } = parsed.value;
  // Without a price, the body does not say what the transaction may pay. With several stated, the
  // highest: which one the chain applies depends on the transaction's type, and a maximum fee per
  // gas is never below the priority fee (EIP-1559). Without a limit, the least any transaction
  // uses (21,000 gas): the fee is at least that.
  const prices = [maxFeePerGas, maxPriorityFeePerGas, gasPrice].filter((p): p is string => p != null).map((p) => BigInt(p));
  if (prices.length === 0) return ok(null);
  const price = prices.reduce((a, b) => (a > b ? a : b));
  const wei = BigInt(gasLimit ?? MIN_EVM_GAS) * price;
  return ok(inWholeUnits(wei.toString(), EVM_DECIMALS, network));
}

export const EVM_FEES: readonly FeeReader[] = [{ object: "evmTransaction", read: evmMaxFee }];
