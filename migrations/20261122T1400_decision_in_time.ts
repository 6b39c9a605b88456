import { sql, type Kysely } from "kysely";

/**
 * `countersign_decision_in_time(budget_ms)`: the server's own check of the decision deadline
 * (src/decision/deadline.ts), so that the write and its COMMIT can go in one round trip
 * (src/decision/session.ts). It runs after the write and before the COMMIT of the same batch, and
 * fails (SQLSTATE 57014, as a statement timeout does) once `budget_ms` — the budget the service had
 * left when it sent `begin` — has passed since the transaction began. A failed statement aborts the
 * transaction, and the COMMIT behind it then rolls back instead: a write that a lock, a paused
 * server or a slow disk held past the deadline is never committed.
 *
 * The server reckons from its own clock, so no clock skew between hosts enters; its deadline falls
 * later than the service's by the time `begin` took to reach it (a network hop).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function countersign_decision_in_time(budget_ms double precision) returns void language plpgsql as $$
    begin
      if clock_timestamp() > transaction_timestamp() + make_interval(secs => budget_ms / 1000) then
        raise exception 'the decision''s deadline passed before its commit' using errcode = 'query_canceled';
      end if;
    end $$`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists countersign_decision_in_time(double precision)`.execute(db);
}
