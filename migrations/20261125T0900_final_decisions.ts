import { sql, type Kysely } from "kysely";
import { up as previousFunctions } from "./20261124T0900_decision_statement_costs.js";

/**
 * The idempotency lookup by key instead of across every month. A decision's read looked for the
 * name's first allow or deny in `decisions`, which is partitioned by month: one index probe, and an
 * executor node started, per partition, so each month kept added to every decision's cost (a
 * callgrind count of the SQL ceiling: 3.33 million instructions per decision with 5 partitions,
 * 3.90 million with 17, a year's worth). `final_decisions` holds each name's final decision (its
 * id and time) under the name as primary key; the read takes it by key and fetches the row from
 * the one partition its time names (3.32 and 3.61 million).
 *
 * - The write function adds the row with the decision, in the same transaction, when the decision
 *   is the name's first allow or deny (not a repeat, not a conflict): under the name's lock, after
 *   a read that found none. A second row for the name fails the transaction (primary key): never
 *   two finals.
 * - A `final_decisions` row whose decision is not in `decisions` (a month archived, or a row never
 *   written) fails the read: answering as undecided could sign what was denied.
 * - Both functions are replaced in place, so a process of the previous version, calling them by
 *   name during a rolling upgrade, keeps the table up to date too. The one-argument versions of
 *   20261122T1300..1400 no longer would, and are dropped: a process two versions old fails (503)
 *   instead of writing finals the lookup cannot see.
 * - The existing finals are copied under a lock that waits for decision writes in flight and holds
 *   new ones until the migration commits, so none is written between the copy and the new functions.
 * - Append-only like `decisions`; the writer may insert and read, the auditor read.
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
  await sql`
    insert into final_decisions (transaction_name, decision_id, decided_at)
    select distinct on (transaction_name) transaction_name, id, decided_at from decisions
    where decision in ('allow', 'deny') and replayed = false and replay_of is null
    order by transaction_name, seq`.execute(db);
  await sql`create trigger final_decisions_append_only before update or delete on final_decisions
    for each row execute function countersign_refuse_change()`.execute(db);
  await sql`create trigger final_decisions_no_truncate before truncate on final_decisions
    for each statement execute function countersign_refuse_change()`.execute(db);
  await sql`
    do $$
    begin
      if exists (select 1 from pg_roles where rolname = 'countersign_writer') then
        revoke all on final_decisions from countersign_writer;
        grant select, insert on final_decisions to countersign_writer;
      end if;
      if exists (select 1 from pg_roles where rolname = 'countersign_auditor') then
        grant select on final_decisions to countersign_auditor;
      end if;
    end
    $$`.execute(db);
  await sql`drop function if exists countersign_decision_read(jsonb)`.execute(db);
  await sql`drop function if exists countersign_decision_write(jsonb)`.execute(db);
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
    begin
      -- Single function calls are PL/pgSQL simple expressions: no executor is started for them.
      perform set_config('lock_timeout', budget, true);
      perform set_config('statement_timeout', budget, true);
      perform set_config('idle_in_transaction_session_timeout', budget, true);
      perform pg_advisory_xact_lock(hashtextextended('decision:' || tx_name, 0));
      -- The name's final decision by its key, then its row in the one partition its time names.
      select f.decision_id, f.decided_at into final_id, final_at from final_decisions f where f.transaction_name = tx_name;
      if found then
        select jsonb_build_object('id', d.id, 'decision', d.decision, 'policy_version', d.policy_version, 'policy_digest', d.policy_digest,
            'matched_rules', d.matched_rules, 'reasons', d.reasons, 'content_digest', d.content_digest)
          into final
          from decisions d
          where d.id = final_id and d.decided_at = final_at and d.transaction_name = tx_name;
        if final is null then
          -- Archived or never written: answering as undecided could sign what was denied.
          raise exception 'the final decision % of % is not in decisions', final_id, tx_name using errcode = 'foreign_key_violation';
        end if;
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
          perform pg_advisory_xact_lock(lock_id);
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

  await sql`
    create or replace function countersign_decision_write(args jsonb, budget_ms double precision) returns void language plpgsql as $$
    declare
      row_id uuid := (args->'decision'->>'id')::uuid;
      decided timestamptz := (args->'decision'->>'decided_at')::timestamptz;
      tx_name text := args->'decision'->>'transaction_name';
      tx_vault text := args->'decision'->>'vault';
    begin
      insert into decisions (
        id, decided_at, transaction_name, vault, decision, sign_transaction, http_status, replayed, replay_of,
        policy_version, policy_digest, matched_rules, reasons, facts, transaction, content_digest, request_id,
        duration_ms, trace, velocity_windows, shadow_policy_version, shadow_policy_digest, shadow_decision,
        shadow_matched_rules, shadow_error)
      select
        id, decided_at, transaction_name, vault, decision, sign_transaction, http_status, replayed, replay_of,
        policy_version, policy_digest, matched_rules, reasons, facts, transaction, content_digest, request_id,
        duration_ms, trace, velocity_windows, shadow_policy_version, shadow_policy_digest, shadow_decision,
        shadow_matched_rules, shadow_error
      from jsonb_populate_record(null::decisions, args->'decision');

      -- The name's first allow or deny (the read found none, under the name's lock) is its final one.
      if args->'decision'->>'decision' in ('allow', 'deny') and not (args->'decision'->>'replayed')::boolean
          and args->'decision'->>'replay_of' is null then
        insert into final_decisions (transaction_name, decision_id, decided_at) values (tx_name, row_id, decided);
      end if;

      if args->'review' is not null and args->'review' <> 'null'::jsonb then
        insert into reviews (id, transaction_name, vault, content_digest, opened_at, expires_at, opened_by, initiator, requirements, explanation)
        select id, transaction_name, vault, content_digest, opened_at, expires_at, opened_by, initiator, requirements, explanation
        from jsonb_populate_record(null::reviews, args->'review');
      end if;

      if jsonb_array_length(coalesce(args->'actions', '[]'::jsonb)) > 0 then
        insert into review_actions (id, at, transaction_name, content_digest, identity, action, "group", comment)
        select id, at, transaction_name, content_digest, identity, action, "group", comment
        from jsonb_populate_recordset(null::review_actions, args->'actions');
      end if;

      -- Charges are the decision's, stamped with its time; each group's bucket rows are raised once
      -- per width by the sum of its charges (an upsert may touch a row only once per statement).
      if jsonb_array_length(coalesce(args->'charges', '[]'::jsonb)) > 0 then
        with known as (
          insert into velocity_groups (group_hash, group_key, first_charged_at)
          select decode(g.hash, 'hex'), g.key, decided
          from jsonb_to_recordset(args->'groups') as g(hash text, key text)
          on conflict (group_hash) do nothing
        ), input as (
          select c.transfer_index, decode(c.hash, 'hex') as group_hash, c.amount
          from jsonb_to_recordset(args->'charges') as c(transfer_index int, hash text, amount numeric)
        ), charged as (
          insert into velocity_charges (decision_id, transaction_name, vault, transfer_index, group_hash, amount, charged_at)
          select row_id, tx_name, tx_vault, transfer_index, group_hash, amount, decided from input
        )
        insert into velocity_buckets as b (group_hash, width_seconds, bucket_start, amount, count)
        select i.group_hash, w.width::int, velocity_bucket_start(w.width::int, decided), s.amount, s.count
        from input i
        cross join lateral (
          select coalesce(sum(j.amount), 0) as amount, count(*) as count, min(j.transfer_index) as first_index
          from input j where j.group_hash = i.group_hash
        ) s
        cross join jsonb_array_elements_text(args->'widths') as w(width)
        where i.transfer_index = s.first_index
        on conflict (group_hash, width_seconds, bucket_start)
          do update set amount = b.amount + excluded.amount, count = b.count + excluded.count;
      end if;

      perform countersign_decision_in_time(budget_ms);
    end $$`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function countersign_decision_read(jsonb, double precision)`.execute(db);
  await sql`drop function countersign_decision_write(jsonb, double precision)`.execute(db);
  await previousFunctions(db);
  await sql`drop table final_decisions`.execute(db);
}
