/**
 * Event rows. Redelivery is normal (the platform retries unacknowledged events for 24 hours, and
 * an acknowledgement lost on the way back looks the same), so an insert of a known id is a no-op
 * that reports the duplicate; `on conflict` makes concurrent deliveries of one id store one row.
 */
import type { Db } from "../database.js";
import { CONFIRMED } from "./effects.js";
import type { PlatformEvent } from "./event.js";

/** The verified delivery as received: the exact body bytes, their signature, the parsed body. */
export interface VerifiedDelivery {
  body: Buffer;
  signature: string;
  payload: unknown;
}

export async function storeEvent(db: Db, event: PlatformEvent, raw: VerifiedDelivery, receivedAt: Date): Promise<{ stored: boolean }> {
  const inserted = await db
    .insertInto("events")
    .values({
      id: event.id,
      received_at: receivedAt,
      vault: event.vault,
      type: event.type,
      resource_type: event.resourceType,
      resource: event.resource,
      new_state: event.newState,
      details: event.details === null ? null : JSON.stringify(event.details),
      payload: JSON.stringify(raw.payload),
      body: raw.body,
      signature: raw.signature,
    })
    .onConflict((oc) => oc.column("id").doNothing())
    .returning("id")
    .executeTakeFirst();
  return { stored: inserted !== undefined };
}

/** The exact body first stored under the event id (a Buffer from pg, a Uint8Array from PGlite). */
export async function storedEventBody(db: Db, eventId: string): Promise<Buffer | undefined> {
  const row = await db.selectFrom("events").select("body").where("id", "=", eventId).executeTakeFirst();
  return row === undefined ? undefined : Buffer.from(row.body);
}

/** Whether the event's effect has completed (on an earlier delivery). */
export async function effectCompleted(db: Db, eventId: string): Promise<boolean> {
  const row = await db.selectFrom("event_effects").select("event_id").where("event_id", "=", eventId).executeTakeFirst();
  return row !== undefined;
}

/**
 * Records that the effect completed. Two concurrent deliveries may both run an (idempotent)
 * effect; the first record wins and the second is a no-op.
 */
export async function recordEffectCompleted(db: Db, eventId: string, effect: string, completedAt: Date): Promise<void> {
  await db
    .insertInto("event_effects")
    .values({ event_id: eventId, effect, completed_at: completedAt })
    .onConflict((oc) => oc.column("event_id").doNothing())
    .execute();
}

/** Whether the platform has reported the transaction CONFIRMED (its one success state) in a stored event. */
export async function transactionConfirmed(db: Db, transactionName: string): Promise<boolean> {
  const row = await db
    .selectFrom("events")
    .select("id")
    .where("type", "=", "TRANSACTION_STATE_UPDATED")
    .where("resource", "=", transactionName)
    .where("new_state", "=", CONFIRMED)
    .executeTakeFirst();
  return row !== undefined;
}
