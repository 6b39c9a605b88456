/**
 * What makes two deliveries of one transaction name "the same transaction" for idempotency:
 * the content that evaluation reads — kind, type, network, initiator, every transfer, and the
 * kind's own object (a delegation's contract, say, which has no transfers) — and not fields that
 * change between polls (state) or that are only human context (note).
 */
import { createHash } from "node:crypto";
import type { Transaction } from "../transaction/types.js";

/** Where each shape keeps the kind's own description: `details.*` (reference) or a top-level object (API). */
const KIND_OBJECTS = ["details", "evmAccountDelegation", "stellarTransaction"] as const;

/** JSON with object keys sorted, so key order in a redelivery does not make it "different". */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== "object") return value ?? null;
  const record = value as Record<string, unknown>;
  return Object.keys(record).sort().map((k) => [k, canonical(record[k])]);
}

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
    kindObjects: KIND_OBJECTS.map((key) => canonical(tx.snapshot[key])),
  };
  return createHash("sha256").update(JSON.stringify(content)).digest("hex");
}
