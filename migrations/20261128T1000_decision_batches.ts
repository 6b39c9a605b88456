import { sql, type Kysely } from "kysely";

/**
 * Decisions that share a database transaction (src/decision/batches.ts): under load the service
 * decides several deliveries in one transaction of two round trips, as the decision of one does
 * (`countersign_decision_read` with `begin`, `countersign_decision_write` with `commit`). One
 * transaction's begin, commit, durable flush and round trips then serve several decisions:
 * replayed by pgbench on a durable server, four decisions per transaction ran 1.66 times the
 * decisions per second of one per transaction (README, "What a decision costs").
 *
 * - `countersign_decision_read_batch(args, budget_ms)`: `args` is a JSON array of the single
 *   read's arguments. It refuses members that share a name, or a window group among members that
 *   evaluate: advisory locks are re-entrant within a transaction, so a second member would not wait
 *   for the first, nor see the charges it is about to write, and both could spend the same room.
 *   The service never batches such members (it sends them alone); this is the server's guard.
 *   Then it takes every member's name lock, ascending, and every group lock of the members that
 *   evaluate, ascending: names before groups and each kind in ascending order, as a decision alone
 *   takes them (its name, then its groups ascending) and a void takes groups ascending, so batches,
 *   single decisions and voids queue behind one another and never deadlock. Last, each member's
 *   own read, whose locks are then already held, gives a row tagged with the member's position.
 * - `countersign_decision_write_batch(args, budget_ms)`: each member's write in turn, each ending
 *   with the deadline check, so the COMMIT behind the batch runs only within the budget the service
 *   passes, the least any member had left.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function countersign_decision_read_batch(args jsonb, budget_ms double precision)
    returns table (ord int, final jsonb, review jsonb, actions jsonb, failure jsonb,
      total_ords int[], total_amounts text[], total_counts text[])
    language plpgsql as $$
    declare
      budget text := greatest(1, floor(budget_ms))::bigint::text;
      lock_id int8;
      done text;
      i int;
    begin
      if jsonb_typeof(args) is distinct from 'array' then
        raise exception 'countersign_decision_read_batch takes an array of reads' using errcode = 'invalid_parameter_value';
      end if;
      if exists (select 1 from jsonb_array_elements(args) m group by m->>'name' having count(*) > 1 or m->>'name' is null) then
        raise exception 'a batch of decisions names one transaction twice' using errcode = 'invalid_parameter_value';
      end if;
      if exists (select 1 from jsonb_array_elements(args) m cross join unnest((m->>'locks')::int8[]) as l(id)
          where (m->>'evaluate')::boolean group by l.id having count(*) > 1) then
        raise exception 'a batch of decisions shares a window group' using errcode = 'invalid_parameter_value';
      end if;
      done := set_config('lock_timeout', budget, true);
      done := set_config('statement_timeout', budget, true);
      done := set_config('idle_in_transaction_session_timeout', budget, true);
      for lock_id in select distinct hashtextextended('decision:' || (m->>'name'), 0) from jsonb_array_elements(args) m order by 1 loop
        done := pg_advisory_xact_lock(lock_id)::text;
      end loop;
      for lock_id in select distinct l.id from jsonb_array_elements(args) m cross join unnest((m->>'locks')::int8[]) as l(id)
          where (m->>'evaluate')::boolean order by 1 loop
        done := pg_advisory_xact_lock(lock_id)::text;
      end loop;
      for i in 0 .. jsonb_array_length(args) - 1 loop
        return query select i, r.final, r.review, r.actions, r.failure, r.total_ords, r.total_amounts, r.total_counts
          from countersign_decision_read(args->i, budget_ms) r;
      end loop;
    end $$`.execute(db);
  await sql`
    create function countersign_decision_write_batch(args jsonb, budget_ms double precision) returns void
    language plpgsql as $$
    declare
      member jsonb;
    begin
      if jsonb_typeof(args) is distinct from 'array' then
        raise exception 'countersign_decision_write_batch takes an array of writes' using errcode = 'invalid_parameter_value';
      end if;
      for member in select value from jsonb_array_elements(args) loop
        perform countersign_decision_write(member, budget_ms);
      end loop;
    end $$`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists countersign_decision_write_batch(jsonb, double precision)`.execute(db);
  await sql`drop function if exists countersign_decision_read_batch(jsonb, double precision)`.execute(db);
}
