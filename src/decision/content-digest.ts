/**
 * What makes two deliveries of one transaction name "the same transaction" for idempotency: the
 * whole transaction object except the fields the classification table (src/transaction/
 * field-classes.ts) calls delivery metadata — state, timestamps, fees, signatures, signer progress,
 * hints. Every field the decision could depend on is covered, payloads and unclassified fields
 * included, so a redelivery that adds an allowance or changes a calldata is a conflicting snapshot.
 * Key order does not matter.
 */
import { createHash } from "node:crypto";
import { scanFields } from "../transaction/fields.js";
import type { Transaction } from "../transaction/types.js";

export function contentDigest(tx: Transaction): string {
  const content = JSON.stringify(scanFields(tx.snapshot).content);
  return createHash("sha256").update(content).digest("hex");
}
