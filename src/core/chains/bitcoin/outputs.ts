/**
 * A `btcTransaction` against the transfers: every output pays one listed transfer or is marked as
 * change, and every listed transfer is paid. A Bitcoin output that is neither change nor a listed
 * transfer, change without its amount, or inputs without outputs is the payload `btcOutputs`; an
 * input without its address or amount is `btcInputs` (either would hide the fee the miner takes).
 * Change is only a mark here: its addresses go to the facts, which accept them only as the vault's own.
 */
import type { z } from "zod";
import { err, ok, type AppError, type Result } from "../../errors.js";
import { sameDecimal } from "../../transaction/amounts.js";
import { check, invalidAt } from "../../transaction/issues.js";
import { btcTransaction } from "../../transaction/schemas.js";
import { at, isRecord } from "../../transaction/transfer.js";
import type { ChangeOutput, Transfer } from "../../transaction/types.js";
import { assetIdentity, assetStandardOf, networkFromAsset } from "../assets.js";
import type { ObjectReading } from "../family.js";

export function btcObjects(tx: Record<string, unknown>, transfers: readonly Transfer[], network: string | null, path: string): Result<ObjectReading, AppError> {
  if (tx.btcTransaction == null) return ok({ payloads: [] });
  const input = tx.btcTransaction;
  const objectPath = at(path, "btcTransaction");
  if (!isRecord(input)) return err(invalidAt(objectPath, "must be an object"));
  const parsed = check(btcTransaction, input, objectPath);
  if (!parsed.ok) return parsed;
  const onNetwork = transfers.map((t) => t.network).find((n) => n !== null) ?? network;
  const inputs = parsed.value.inputs ?? [];
  // An input that names no address cannot be shown to be the source wallet's. One that states no
  // amount can be worth any sum, and all of it beyond the outputs goes to the miner: the fee the
  // transaction pays (tx.fee) cannot be read, whatever fee the body states.
  const unshownInput = inputs.some((i) => (i.address?.value ?? null) === null || i.amount == null);
  const spentFrom = inputs.flatMap((i) => (i.address?.value ? [{ address: i.address.value, network: onNetwork }] : []));
  const outputs = parsed.value.outputs ?? [];
  // Inputs without the outputs: where their value goes beyond the transfers (change, or the miner) is
  // not shown. Outputs move the transaction's own coin (`asset`, when stated): transfers of another
  // asset (testnet coins beside a mainnet `asset`, a token) are not what they pay. An object that
  // lists neither (`{}`, only a fee) moves nothing the transfers could be matched against.
  const describes = inputs.length > 0 || outputs.length > 0;
  const unshownOutputs = describes && (outputs.length === 0 || !sameCoin(transfers, parsed.value.asset ?? null));
  const outputsChecked = unshownOutputs ? { payloads: ["btcOutputs"], changeOutputs: [] } : btcOutputPayloads(outputs, transfers, onNetwork);
  return ok({ ...outputsChecked, payloads: unshownInput ? [...outputsChecked.payloads, "btcInputs"] : outputsChecked.payloads, inputs: spentFrom });
}

/** Every transfer is of a native coin, and of the Bitcoin object's `asset` when it states one. */
function sameCoin(transfers: readonly Transfer[], asset: string | null): boolean {
  const coin = asset === null ? null : assetIdentity(asset, assetStandardOf(asset), networkFromAsset(asset));
  return transfers.every((t) => t.assetStandard === "native" && (coin === null || assetIdentity(t.asset, t.assetStandard, t.network) === coin));
}

type BtcOutput = NonNullable<z.infer<typeof btcTransaction>["outputs"]>[number];

function btcOutputPayloads(outputs: readonly BtcOutput[], transfers: readonly Transfer[], onNetwork: string | null): { payloads: string[]; changeOutputs: ChangeOutput[] } {
  const changeOutputs: ChangeOutput[] = [];
  const unlisted = { payloads: ["btcOutputs"], changeOutputs: [] };
  if (outputs.length === 0) return { payloads: [], changeOutputs };
  const unpaid = new Set(transfers);
  for (const output of outputs) {
    const address = output.address?.value ?? null;
    if (output.change === true) {
      // Change whose address is not stated cannot be shown to stay in the vault; change whose
      // amount is not stated may be worth nothing, the rest of the inputs going to the miner.
      if (address === null || output.amount == null) return unlisted;
      changeOutputs.push({ address, network: onNetwork });
      continue;
    }
    const amount = output.amount ?? null;
    const paid = [...unpaid].find(
      (t) => address !== null && amount !== null && t.destination.address !== null && t.amount !== null && t.destination.address === address && sameDecimal(t.amount, amount),
    );
    if (paid === undefined) return unlisted;
    unpaid.delete(paid);
  }
  return unpaid.size > 0 ? unlisted : { payloads: [], changeOutputs };
}
