/**
 * `btcTransaction.fee` (BTC). When every output carries an amount, the inputs that state one less
 * the outputs are the least the fee is (all of it when every input states one): a stated fee below
 * that, or other than it, is refused (400), and with none stated that least is the fee. A BTC
 * transaction of 0.001 with 3 BTC of inputs and no change pays 2.999 to the miner.
 */
import Big from "big.js";
import { z } from "zod";
import { err, ok, type AppError, type Result } from "../../errors.js";
import { check, invalidAt } from "../../transaction/issues.js";
import { decimalAmount } from "../../transaction/schemas.js";
import { at, isRecord } from "../../transaction/transfer.js";
import type { Fee } from "../../transaction/types.js";
import type { FeeReader } from "../family.js";
import { nativeAsset } from "../networks.js";

/** Exact decimals with a private configuration: never touch big.js's global settings. */
const Dec = Big();
Dec.strict = true;

const btcAmounts = z
  .object({
    fee: decimalAmount.nullish(),
    inputs: z.array(z.object({ amount: decimalAmount.nullish() }).passthrough()).nullish(),
    outputs: z.array(z.object({ amount: decimalAmount.nullish() }).passthrough()).nullish(),
    asset: z.unknown().optional(),
  })
  .passthrough();

function btcFee(snapshot: Record<string, unknown>, network: string | null, txPath: string): Result<Fee | null, AppError> {
  const btc = snapshot.btcTransaction;
  if (!isRecord(btc)) return ok(null);
  const path = at(txPath, "btcTransaction");
  const parsed = check(btcAmounts, btc, path);
  if (!parsed.ok) return parsed;
  const { fee, inputs, outputs } = parsed.value;
  // The transaction's network names the coin; the object's own `asset` only when there is none.
  const asset = network !== null ? nativeAsset(network) : typeof btc.asset === "string" ? btc.asset : null;
  const everyAmount = (items: { amount?: string | null }[] | null | undefined): items is { amount: string }[] =>
    items != null && items.length > 0 && items.every((i) => typeof i.amount === "string");
  if (everyAmount(outputs) && inputs != null && inputs.length > 0) {
    const sum = (amounts: (string | null | undefined)[]) => amounts.reduce((total: Big, a) => (a == null ? total : total.plus(a)), new Dec("0"));
    const paid = sum(outputs.map((o) => o.amount));
    // Inputs whose amount is not stated only add to the fee: the stated ones less the outputs is its least.
    const least = sum(inputs.map((i) => i.amount)).minus(paid);
    if (everyAmount(inputs)) {
      if (least.lt("0")) return err(invalidAt(path, "its outputs add up to more than its inputs"));
      if (fee != null && !least.eq(fee)) return err(invalidAt(at(path, "fee"), "disagrees with its inputs less its outputs"));
      return ok({ asset, amount: least.toFixed() });
    }
    if (fee != null && least.gt(fee)) return err(invalidAt(at(path, "fee"), "is less than its inputs less its outputs"));
    if (fee == null && least.gt("0")) return ok({ asset, amount: least.toFixed() });
  }
  return ok(fee == null ? null : { asset, amount: new Dec(fee).toFixed() });
}

export const BITCOIN_FEES: readonly FeeReader[] = [{ object: "btcTransaction", read: btcFee }];
