/**
 * What makes two deliveries of one transaction name "the same transaction" for idempotency:
 * the content that evaluation reads — kind, type, network, initiator and every transfer — and
 * not fields that change between polls (state) or that are only human context (note).
 */
import { createHash } from "node:crypto";
import type { Transaction } from "../transaction/types.js";

export function contentDigest(tx: Transaction): string {
  const content = {
    kind: tx.kind,
    type: tx.type,
    subType: tx.subType,
    network: tx.network,
    initiator: tx.initiator,
    transfers: tx.transfers.map((t) => [
      t.network, t.asset, t.amount, t.rawAmount, t.source.value, t.source.wallet, t.destination.value, t.sponsor,
    ]),
  };
  return createHash("sha256").update(JSON.stringify(content)).digest("hex");
}
