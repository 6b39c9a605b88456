/**
 * The low-level chain objects a body carries beside its transfers (`evmTransaction`,
 * `btcTransaction`, `aleoTransaction`, ...), classified by their families against the transfers:
 * whatever they do beyond the transfers is a payload (README, "Chains"). A sender (senders.ts) that
 * is not the transfers' source is a contradiction (400).
 */
import { ok, type AppError, type Result } from "../errors.js";
import type { ChainSender, ChangeOutput, Transfer } from "../transaction/types.js";
import type { ObjectReading } from "./family.js";
import { FAMILIES, OTHER_FAMILIES } from "./registry.js";
import { chainSender } from "./senders.js";

export interface ChainObjects {
  payloads: string[];
  /** Outputs marked as change, for the facts to check against the vault's own addresses. */
  changeOutputs: ChangeOutput[];
  /** The account a chain object says pays (senders.ts), whatever the transfers name as source. */
  sender: ChainSender | null;
  /** Addresses the transaction spends from, for the facts to check against the source wallet's own addresses. */
  btcInputs: ChangeOutput[];
}

export function chainObjectPayloads(tx: Record<string, unknown>, transfers: readonly Transfer[], network: string | null, path: string): Result<ChainObjects, AppError> {
  const objects: ChainObjects = { payloads: [], changeOutputs: [], sender: null, btcInputs: [] };
  for (const family of FAMILIES) {
    const read: Result<ObjectReading, AppError> = family.classifyObjects?.(tx, transfers, network, path, OTHER_FAMILIES) ?? ok({ payloads: [] });
    if (!read.ok) return read;
    objects.payloads.push(...read.value.payloads);
    objects.changeOutputs.push(...(read.value.changeOutputs ?? []));
    objects.btcInputs.push(...(read.value.inputs ?? []));
  }
  const sender = chainSender(tx, transfers, path);
  if (!sender.ok) return sender;
  return ok({ ...objects, sender: sender.value });
}
