import { sql, type Kysely } from "kysely";

/**
 * The shared transaction's read never waits for a lock (src/decision/batches.ts).
 * `countersign_decision_read_batch` (20261128T1000_decision_batches) took every member's name and
 * group locks with pg_advisory_xact_lock, waiting for each. A lock the service process cannot see
 * held — another replica deciding the same wallet or name, a void, a reviewer's action — then held
 * up every member, with every other member's locks held, until the earliest member's deadline
 * destroyed the transaction: a member whose own locks were free answered 503 (found by a review).
 *
 * `countersign_decision_read_batch_nowait(args, budget_ms)` takes the same arguments, refuses the
 * same batches (a name twice, a window group shared among members that evaluate), and tries each
 * lock without waiting (pg_try_advisory_xact_lock): every member's name lock, then each evaluating
 * member's group locks, ascending. A member one of whose locks is held elsewhere is *busy*: its
 * row says so and reads nothing; the service sends it alone, to wait for its lock in a transaction
 * of its own as a decision alone does. Locks it got before the busy one stay held until the shared
 * transaction ends (a transaction-level advisory lock cannot be given back earlier): they only
 * make that member's own transaction wait for the shared one, which waits for nothing. Since this
 * read never waits, it cannot take part in a deadlock, whatever order others lock in. Every other
 * member's read is the single one's, its locks then already held.
 *
 * `countersign_decision_read_batch` stays for a process of the previous version during a rolling
 * upgrade; a later migration may drop it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function countersign_decision_read_batch_nowait(args jsonb, budget_ms double precision)
    returns table (ord int, busy boolean, final jsonb, review jsonb, actions jsonb, failure jsonb,
      total_ords int[], total_amounts text[], total_counts text[])
    language plpgsql as $$
    declare
      budget text := greatest(1, floor(budget_ms))::bigint::text;
      n int;
      busy_at boolean[];
      lock_id int8;
      done text;
      i int;
    begin
      if jsonb_typeof(args) is distinct from 'array' then
        raise exception 'countersign_decision_read_batch_nowait takes an array of reads' using errcode = 'invalid_parameter_value';
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
      n := jsonb_array_length(args);
      busy_at := array_fill(false, array[n]);
      -- Names, ascending by lock id, as before; order no longer matters for deadlocks (nothing waits).
      for i in select m.i from (select e.i - 1 as i, hashtextextended('decision:' || (e.m->>'name'), 0) as id
          from jsonb_array_elements(args) with ordinality as e(m, i)) m order by m.id loop
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
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists countersign_decision_read_batch_nowait(jsonb, double precision)`.execute(db);
}
