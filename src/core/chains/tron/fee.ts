/**
 * `tronTransaction.fee`: the SUN the platform states the transaction uses (`usedSun`), or the sum
 * of the parts it breaks down into (`bandwidth.burned` and `energy.burned` in TRX, an
 * `accountActivationFee.fee` in SUN) when that is higher. The OpenAPI names no fee limit for Tron:
 * this is the platform's own figure, not a cap the chain enforces.
 */
import Big from "big.js";
import { z } from "zod";
import { ok, type AppError, type Result } from "../../errors.js";
import { check } from "../../transaction/issues.js";
import { decimalAmount, rawAmount } from "../../transaction/schemas.js";
import { at, isRecord } from "../../transaction/transfer.js";
import type { Fee } from "../../transaction/types.js";
import type { FeeReader } from "../family.js";
import { nativeAsset } from "../networks.js";

/** SUN per TRX. */
export const TRON_DECIMALS = 6;

/** Exact decimals with a private configuration: never touch big.js's global settings. */
const Dec = Big();
Dec.strict = true;

const tronBurned = z.object({ burned: decimalAmount.nullish() }).passthrough().nullish();
const tronFee = z
  .object({
    usedSun: rawAmount.nullish(),
    bandwidth: tronBurned,
    energy: tronBurned,
    accountActivationFee: z.object({ fee: rawAmount.nullish() }).passthrough().nullish(),
  })
  .passthrough();

function tronUsedFee(snapshot: Record<string, unknown>, network: string | null, path: string): Result<Fee | null, AppError> {
  const value = isRecord(snapshot.tronTransaction) ? snapshot.tronTransaction.fee : undefined;
  if (value == null) return ok(null);
  const parsed = check(tronFee, value, at(path, "tronTransaction.fee"));
  if (!parsed.ok) return parsed;
  const { usedSun, bandwidth, energy, accountActivationFee } = parsed.value;
  const sun = (amount: string) => new Dec(amount).div(new Dec("10").pow(TRON_DECIMALS));
  const parts = [bandwidth?.burned, energy?.burned].filter((a): a is string => a != null).map((a) => new Dec(a));
  if (accountActivationFee?.fee != null) parts.push(sun(accountActivationFee.fee));
  const readings = [...(usedSun == null ? [] : [sun(usedSun)]), ...(parts.length === 0 ? [] : [parts.reduce((a, b) => a.plus(b))])];
  if (readings.length === 0) return ok(null);
  // The higher reading: a fee stated two ways is capped by the larger.
  const highest = readings.reduce((a, b) => (a.gt(b) ? a : b));
  return ok({ asset: network === null ? null : nativeAsset(network), amount: highest.toFixed() });
}

export const TRON_FEES: readonly FeeReader[] = [{ object: "tronTransaction", read: tronUsedFee }];
