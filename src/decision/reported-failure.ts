/**
 * A transaction the platform has already reported as ended in failure (CANCELED, FAILED, EXPIRED,
 * ...; src/events/effects.ts) is never signed afterwards. The event can arrive before the
 * co-signer's first delivery of that transaction (events and deliveries race), and voiding charges
 * cannot help then: nothing is charged yet, and an allow would charge it and sign a transaction
 * the platform considers dead — or be replayed if the platform ever revives that name. So the
 * first evaluation reads the stored events (indexed by resource) under the transaction-name lock
 * (countersign_decision_read, migrations/sql/functions/decision-session.sql) and denies, final, naming the state and the event.
 */
/** The reason to deny a transaction the platform reported ended in `state` by event `eventId`. */
export function reportedFailure(eventId: string, state: string): string {
  return `the platform reported this transaction ${state} (event ${eventId}) before it was decided`;
}
