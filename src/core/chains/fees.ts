/**
 * The network fee a transaction states, for the `tx.fee` fact: what it pays beside its transfers,
 * in whole units of the network's native asset, read by each family from its chain objects
 * (README, "Chains"). A fee leaves the wallet as surely as a transfer does, so a policy must be able
 * to cap it. The coin is the transaction's network's, or the network every transfer's asset names;
 * null when the body states none (the platform then chooses it). The fee fields are delivery
 * metadata in the classification table, but the fee read from them is part of the content digest:
 * a redelivery that states another fee is a conflicting snapshot, never a repeat of an allow given
 * to a lower one.
 */
import { err, ok, type AppError, type Result } from "../errors.js";
import type { Fee } from "../transaction/types.js";
import { FEE_READERS } from "./registry.js";
import { envelopeFee } from "./stellar/index.js";
import { invalidAt } from "../transaction/issues.js";

/**
 * The fee the body states, or null; a malformed or contradictory one is a 400. `envelopeStroops`:
 * the fee of the Stellar envelope the shape decoded, if it decoded one: the fee signed, which a
 * stated `stellarTransaction.fee` was checked against.
 */
export function statedFee(snapshot: Record<string, unknown>, network: string | null, path: string, envelopeStroops?: string): Result<Fee | null, AppError> {
  const found: Fee[] = envelopeStroops === undefined ? [] : [envelopeFee(envelopeStroops, network)];
  for (const reader of FEE_READERS) {
    if (reader.object === "stellarTransaction" && envelopeStroops !== undefined) continue;
    const fee = reader.read(snapshot, network, path);
    if (!fee.ok) return fee;
    if (fee.value !== null) found.push(fee.value);
  }
  if (found.length > 1) return err(invalidAt(path, "states a fee in more than one chain object"));
  return ok(found[0] ?? null);
}
