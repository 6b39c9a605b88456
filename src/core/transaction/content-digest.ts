/**
 * What makes two deliveries of one transaction name "the same transaction" for idempotency: the
 * whole transaction object except the fields the classification table (src/core/transaction/
 * field-classes.ts) calls delivery metadata — state, timestamps, fee fields, signatures, signer
 * progress, hints. Every field the decision could depend on is covered, payloads and unclassified
 * fields included, so a redelivery that adds an allowance or changes a calldata is a conflicting
 * snapshot. Key order does not matter.
 *
 * The network fee the transaction states (`tx.fee`, src/core/transaction/fee.ts) is covered too, as
 * the value it is read as (asset and whole-unit amount), not as the fields it is read from: a fee
 * leaves the wallet as a transfer does, and a policy caps it, so a redelivery that raises it (a
 * higher gas price, a bigger BTC input with the same outputs) is a conflicting snapshot, never a
 * repeat of an allow given to the lower fee. The same fee spelled otherwise
 * (`gasPrice` for `maxFeePerGas`, another priority fee) is the same content. A transaction that
 * states no fee digests as before.
 */
import { createHash } from "node:crypto";
import { scanFields } from "./fields.js";
import type { Transaction } from "./types.js";

export function contentDigest(tx: Transaction): string {
  const content = JSON.stringify(scanFields(tx.snapshot).content);
  // JSON.stringify never writes a raw newline, so the fee's part cannot be mimicked by content.
  const fee = tx.fee === null ? "" : `\nfee:${JSON.stringify([tx.fee.asset, tx.fee.amount])}`;
  return createHash("sha256")
    .update(content + fee)
    .digest("hex");
}
