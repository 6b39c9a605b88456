/**
 * The record of a delivery refused by the platform check: append-only, in the audit trail's hash
 * chain (migrations/20261130T0200_delivery_refusals.ts), with both digests and both bodies, so that
 * what was sent in the co-signer's name can be read and compared later.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { Db } from "../database.js";
import type { Transaction } from "../core/transaction/types.js";
import type { Refusal } from "./compare.js";

/** Records the refusal; returns its id. */
export async function recordRefusal(db: Db, delivered: Transaction, refusal: Refusal, requestId: string, at: Date): Promise<string> {
  const id = randomUUID();
  const platform = refusal.platformCopy === null ? null : JSON.stringify(refusal.platformCopy);
  await db
    .insertInto("delivery_refusals")
    .values({
      id,
      refused_at: at,
      transaction_name: delivered.name,
      vault: delivered.vault,
      code: refusal.code,
      delivered_digest: refusal.deliveredDigest,
      platform_digest: refusal.platformDigest,
      platform_state: refusal.platformState,
      delivered: sql<string>`${JSON.stringify(delivered.snapshot)}::jsonb`,
      platform: platform === null ? null : sql<string>`${platform}::jsonb`,
      request_id: requestId,
    })
    .execute();
  return id;
}

/**
 * The content digest of the name's final decision, when it has one whose row is at hand: a
 * delivery with that digest is a repeat, answered from the record without asking the platform.
 */
export async function finalDigestOf(db: Db, transactionName: string): Promise<string | null> {
  const { rows } = await sql<{ content_digest: string }>`
    select d.content_digest from final_decisions f
    join decisions d on d.id = f.decision_id and d.decided_at = f.decided_at
    where f.transaction_name = ${transactionName}`.execute(db);
  return rows[0]?.content_digest ?? null;
}
