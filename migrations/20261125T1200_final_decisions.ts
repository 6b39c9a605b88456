import { sql, type Kysely } from "kysely";
import { up as createRepeatAfterVoidRead } from "./20261125T1000_repeat_after_void.js";

/**
 * The idempotency lookup and the charges' decision check no longer search every month of
 * `decisions`. Both looked a row up by something other than the partition key (the name; the
 * decision id), so each started an index scan in every monthly partition: Postgres ran 3.43
 * million instructions per decision with 5 months and 4.00 million with 17, a year's worth (the
 * SQL ceiling's script under callgrind). Now both cost the same at any number of months (3.34
 * million with 5 and 3.35 with 17, with the read's PERFORMs below made assignments).
 *
 * - `final_decisions`: the first final decision (allow or deny, neither a repeat nor a refused
 *   repeat) of each transaction name, as (name, decision id, decided_at). A row trigger on
 *   `decisions` writes it, so every writer keeps it: this version, a process of the previous one
 *   during a rolling upgrade, a row inserted by hand. A later final under the same name (the name's
 *   lock makes it impossible from the service) leaves it as it is, as the lookup by `seq` did.
 * - The read finds the name there, then its row by (id, decided_at): Postgres prunes to its month.
 *   A name whose row is gone with its archived month is answered as decided before (denied).
 * - The charges' check looks their decision up there by name first, and searches `decisions`
 *   only for a charge it does not find (never one the service writes).
 * - Append-only like the audit tables. Written by its trigger alone, with the owner's rights
 *   (SECURITY DEFINER, `search_path` pinned, as `audit_seal`): the writer and the auditor may only
 *   read it. With INSERT (as first written, found by a review) the writer could make a row of its
 *   choosing a name's final decision (a `decisions` row marked as a repeat of an allow, under a
 *   name the policy had only deferred, was then signed as a repeat), and let charges refer to no
 *   decision. The pinned `search_path` costs each final decision about a microsecond (a trigger
 *   inserting 100,000 rows: 0.40 s as invoker, 0.49 s as definer).
 *
 * The migration takes the table's write lock while it fills the table from the rows already
 * recorded (one pass over `decisions`): decisions wait for it (or time out as a 503, and the
 * co-signer asks again).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`lock table decisions in share row exclusive mode`.execute(db);
  await sql`
    create table final_decisions (
      transaction_name text primary key,
      decision_id uuid not null,
      decided_at timestamptz not null
    )`.execute(db);
  await sql`create trigger final_decisions_append_only before update or delete on final_decisions
    for each row execute function countersign_refuse_change()`.execute(db);
  await sql`create trigger final_decisions_no_truncate before truncate on final_decisions
    for each statement execute function countersign_refuse_change()`.execute(db);
  await sql`
    create function final_decisions_record() returns trigger
    language plpgsql security definer set search_path = pg_catalog, public, pg_temp as $$
    begin
      insert into final_decisions (transaction_name, decision_id, decided_at) values (new.transaction_name, new.id, new.decided_at)
        on conflict (transaction_name) do nothing;
      return null;
    end
    $$`.execute(db);
  await sql`create trigger decisions_final_recorded after insert on decisions for each row
    when (new.decision in ('allow', 'deny') and not new.replayed and new.replay_of is null)
    execute function final_decisions_record()`.execute(db);
  await sql`revoke all on function final_decisions_record() from public`.execute(db);
  await sql`
    insert into final_decisions (transaction_name, decision_id, decided_at)
    select distinct on (transaction_name) transaction_name, id, decided_at from decisions
    where decision in ('allow', 'deny') and not replayed and replay_of is null
    order by transaction_name, seq`.execute(db);
  await createFinalDecisionRead(db);
  // Two statements, not one `and`: the second (every month's index) is started only when needed.
  await replaceChargesDecisionCheck(db, sql`
      if exists (select 1 from inserted i where not exists (
          select 1 from final_decisions f where f.transaction_name = i.transaction_name and f.decision_id = i.decision_id)) then
        -- Not found by name (never a charge the service writes): search every month.
        if exists (select 1 from inserted i where not exists (select 1 from decisions d where d.id = i.decision_id)) then
          raise exception 'velocity_charges.decision_id refers to no decision' using errcode = 'foreign_key_violation';
        end if;
      end if;`);
  await sql`
    do $$
    begin
      if exists (select 1 from pg_roles where rolname = 'countersign_writer') then
        -- The default privileges (20261122T1000_audit_2_roles) gave it INSERT, UPDATE and DELETE.
        revoke all on final_decisions from countersign_writer;
        grant select on final_decisions to countersign_writer;
      end if;
      if exists (select 1 from pg_roles where rolname = 'countersign_auditor') then
        grant select on final_decisions to countersign_auditor;
      end if;
    end
    $$`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function createFinalDecisionRead(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function countersign_decision_read(
      args jsonb, budget_ms double precision,
      out final jsonb, out review jsonb, out actions jsonb, out failure jsonb,
      out total_ords int[], out total_amounts text[], out total_counts text[]
    ) language plpgsql as $$
    declare
      tx_name text := args->>'name';
      budget text := greatest(1, floor(budget_ms))::bigint::text;
      failed_states text[] := (args->>'failedStates')::text[];
      lock_id int8;
      final_id uuid;
      final_at timestamptz;
      done text;
    begin
      -- Assigned, not PERFORMed: PERFORM starts an executor for its SELECT, while an assignment of
      -- a single function call is a PL/pgSQL simple expression, evaluated without one.
      done := set_config('lock_timeout', budget, true);
      done := set_config('statement_timeout', budget, true);
      done := set_config('idle_in_transaction_session_timeout', budget, true);
      done := pg_advisory_xact_lock(hashtextextended('decision:' || tx_name, 0))::text;
      -- The name's first final decision, through its one row in final_decisions: a lookup in one
      -- index, however many months \`decisions\` holds. Then that row alone, in its month.
      select f.decision_id, f.decided_at into final_id, final_at from final_decisions f where f.transaction_name = tx_name;
      if found then
        select jsonb_build_object('id', d.id, 'decision', d.decision, 'policy_version', d.policy_version, 'policy_digest', d.policy_digest,
            'matched_rules', d.matched_rules, 'reasons', d.reasons, 'content_digest', d.content_digest,
            'voided', exists (select 1 from velocity_charges c where c.decision_id = d.id and c.voided_at is not null))
          into final
          from decisions d
          where d.id = final_id and d.decided_at = final_at and d.transaction_name = tx_name;
        -- Its month was archived (detached): decided before, so never decided again.
        final := coalesce(final, jsonb_build_object('id', final_id, 'archived', true));
        return;
      end if;
      select jsonb_build_object('id', r.id, 'transaction_name', r.transaction_name, 'vault', r.vault, 'content_digest', r.content_digest,
          'opened_at', r.opened_at, 'expires_at', r.expires_at, 'opened_by', r.opened_by, 'initiator', r.initiator,
          'requirements', r.requirements, 'explanation', r.explanation)
        into review
        from reviews r where r.transaction_name = tx_name order by r.seq desc limit 1;
      if review is not null then
        select coalesce(jsonb_agg(to_jsonb(a) order by a.seq), '[]'::jsonb) into actions from (
          select seq, id, at, transaction_name, content_digest, identity, action, "group", comment
          from review_actions where transaction_name = tx_name and content_digest = review->>'content_digest'
        ) a;
      end if;
      select jsonb_build_object('id', e.id, 'new_state', e.new_state) into failure
        from events e
        where e.resource = tx_name and e.type = 'TRANSACTION_STATE_UPDATED' and e.new_state = any (failed_states)
        order by e.seq limit 1;
      if failure is null and (args->>'evaluate')::boolean then
        -- One lock after another in the order given (ascending ids): queue, never deadlock.
        foreach lock_id in array (args->>'locks')::int8[] loop
          done := pg_advisory_xact_lock(lock_id)::text;
        end loop;
        -- Each piece's sum, as three arrays in step; the service adds a window's pieces up.
        select array_agg(p.ord), array_agg(coalesce(p.amount, 0)::text), array_agg(coalesce(p.count, 0)::text)
          into total_ords, total_amounts, total_counts
          from (
            select b.ord, s.amount, s.count
            from jsonb_to_recordset(args->'buckets') as b(ord int, width int, from_at timestamptz, until_at timestamptz)
            cross join lateral (
              select sum(v.amount) as amount, sum(v.count) as count from velocity_buckets v
              where v.group_hash = decode(args->'hashes'->>b.ord, 'hex') and v.width_seconds = b.width
                and v.bucket_start >= b.from_at and v.bucket_start < b.until_at
            ) s
            union all
            select e.ord, s.amount, s.count
            from jsonb_to_recordset(args->'edges') as e(ord int, after_at timestamptz, until_at timestamptz)
            cross join lateral (
              select sum(c.amount) as amount, count(*) as count from velocity_charges c
              where c.group_hash = decode(args->'hashes'->>e.ord, 'hex') and c.voided_at is null
                and c.charged_at > e.after_at and c.charged_at < e.until_at
            ) s
          ) p;
      end if;
    end $$`.execute(db);
}

/** `velocity_charges_decision_exists` with the given check. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function replaceChargesDecisionCheck(db: Kysely<any>, check: ReturnType<typeof sql>): Promise<void> {
  await sql`
    create or replace function velocity_charges_decision_exists() returns trigger language plpgsql as $$
    begin
${check}
      return null;
    end
    $$`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  // Only while every name it holds still has its row: a name whose row went with an archived month
  // is known to be decided only here, and the read without it would decide that name again.
  await sql`
    do $$
    begin
      if exists (select 1 from final_decisions f
          where not exists (select 1 from decisions d where d.id = f.decision_id and d.decided_at = f.decided_at)) then
        raise exception 'final_decisions holds names whose decision went with an archived month: without it they would be decided again; not dropped';
      end if;
    end
    $$`.execute(db);
  await replaceChargesDecisionCheck(db, sql`
      if exists (select 1 from inserted i where not exists (select 1 from decisions d where d.id = i.decision_id)) then
        raise exception 'velocity_charges.decision_id refers to no decision' using errcode = 'foreign_key_violation';
      end if;`);
  await createRepeatAfterVoidRead(db);
  await sql`drop trigger decisions_final_recorded on decisions`.execute(db);
  await sql`drop function final_decisions_record()`.execute(db);
  await sql`drop table final_decisions`.execute(db);
}
