/**
 * A transaction the platform has already reported as ended in failure (CANCELED, FAILED, EXPIRED,
 * ...; src/events/effects.ts) is never signed afterwards. The event can arrive before the
 * co-signer's first delivery of that transaction (events and deliveries race), and voiding charges
 * cannot help then: nothing is charged yet, and an allow would charge it and sign a transaction
 * the platform considers dead — or be replayed if the platform ever revives that name. So the
 * first evaluation reads the stored events (indexed by resource) under the transaction-name lock,
 * and denies, final, naming the state and the event.
 */
import type { Db } from "../db/connect.js";
import { FAILED_TRANSACTION_STATES } from "../events/effects.js";

/** The reason to deny `transactionName`, or null when no failure was reported for it. */
export async function reportedFailureReason(trx: Db, transactionName: string): Promise<string | null> {
  const event = await trx
    .selectFrom("events")
    .select(["id", "new_state"])
    .where("resource", "=", transactionName)
    .where("type", "=", "TRANSACTION_STATE_UPDATED")
    .where("new_state", "in", [...FAILED_TRANSACTION_STATES])
    .orderBy("seq")
    .limit(1)
    .executeTakeFirst();
  return event === undefined ? null : `the platform reported this transaction ${event.new_state} (event ${event.id}) before it was decided`;
}
