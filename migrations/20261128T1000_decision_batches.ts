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
 *   Then it only *tries* each lock (pg_try_advisory_xact_lock), never waiting: every member's name
 *   lock, then each evaluating member's group locks. A member one of whose locks is held elsewhere
 *   (another replica deciding the same wallet or name, a void, a reviewer's action) is *busy*: its
 *   row says so and reads nothing, and the service sends it alone, to wait for its lock as a
 *   decision alone does. Waiting for it here would hold every other member, with its locks, until
 *   the earliest member's deadline answered 503 for a delivery with nothing of its own contended
 *   (found by a review of the first version). Locks a busy member got before the busy one stay held
 *   until the shared transaction ends (a transaction-level advisory lock cannot be given back
 *   earlier); they only make that member's own transaction wait for the shared one, which waits for
 *   nothing. So the shared read takes part in no deadlock, whatever order others lock in. Every
 *   other member's read is the single one's, its locks then already held, tagged with its position.
 * - `countersign_decision_write_batch(args, budget_ms)`: each member's write in turn, each ending
 *   with the deadline check, so the COMMIT behind the batch runs only within the budget the service
 *   passes, the least any member had left.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function countersign_decision_read_batch(args jsonb, budget_ms double precision)
    returns table (ord int, busy boolean, final jsonb, review jsonb, actions jsonb, failure jsonb,
      total_ords int[], total_amounts text[], total_counts text[])
    language plpgsql as $$
    declare
      budget text := greatest(1, floor(budget_ms))::bigint::text;
      n int := jsonb_array_length(args);
      busy_at boolean[];
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
      busy_at := array_fill(false, array[n]);
      -- Every name, then the groups; in no particular order, since no lock here is waited for.
      for i in 0 .. n - 1 loop
        if not pg_try_advisory_xact_lock(hashtextextended('decision:' || (args->i->>'name'), 0)) then
          busy_at[i + 1] := true;
        end if;
      end loop;
      for i in 0 .. n - 1 loop
        if not busy_at[i + 1] and (args->i->>'evaluate')::boolean then
          foreach lock_id in array (args->i->>'locks')::int8[] loop
            if not pg_try_advisory_xact_lock(lock_id) then
              busy_at[i + 1] := true;
              exit;
            end if;
          end loop;
        end if;
      end loop;
      for i in 0 .. n - 1 loop
        if busy_at[i + 1] then
          return query select i, true, null::jsonb, null::jsonb, null::jsonb, null::jsonb, null::int[], null::text[], null::text[];
        else
          return query select i, false, r.final, r.review, r.actions, r.failure, r.total_ords, r.total_amounts, r.total_counts
            from countersign_decision_read(args->i, budget_ms) r;
        end if;
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
