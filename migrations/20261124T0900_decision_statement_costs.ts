import { sql, type Kysely } from "kysely";

/**
 * The decision's two calls, cut where a callgrind count of a Postgres backend replaying them
 * (bench's SQL ceiling) showed work that bought nothing; each takes the deadline's budget, so a
 * decision sends four statements instead of six (src/decision/session.ts):
 *
 *   begin; countersign_decision_read(args, budget_ms)              -- round trip 1
 *   countersign_decision_write(args, budget_ms); commit            -- round trip 2
 *
 * - The read sets the transaction's timeouts itself (lock, idle-in-transaction, and statement for
 *   the statements after it) before it takes the name's lock, instead of a `set_config` statement
 *   of its own. Its own statement runs under the connection's statement timeout; what could hold
 *   it (the name's and groups' locks) waits under the budget's lock_timeout.
 * - The write ends with the deadline check (`countersign_decision_in_time`) instead of a statement
 *   of its own between it and the COMMIT: a write that finished past the budget still fails, and
 *   the COMMIT behind it rolls back.
 * - The buckets are summed per group with a lateral aggregate over the decision's charges instead
 *   of GROUP BY over charges × widths: the planner sized that hash aggregate for 10,000 groups
 *   (100 estimated rows from each set-returning function), and creating, zeroing and walking its
 *   table was a seventh of the backend's instructions per decision. Every charge of a decision is
 *   stamped with the decision's time (it always was), which is what makes one bucket per group
 *   and width.
 * - The reported-failure lookup compares against an array instead of a semi-join on a
 *   set-returning function.
 *
 * The one-argument functions stay (a process of the previous version may still call them during a
 * rolling upgrade); a later migration may drop them.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function countersign_decision_read(args jsonb, budget_ms double precision) returns jsonb language plpgsql as $$
    declare
      tx_name text := args->>'name';
      budget text := greatest(1, floor(budget_ms))::bigint::text;
      failed_states text[] := array(select jsonb_array_elements_text(args->'failedStates'));
      found_final jsonb;
      found_review jsonb;
      found_actions jsonb;
      found_failure jsonb;
      found_totals jsonb;
      lock_id int8;
    begin
      perform set_config('lock_timeout', budget, true), set_config('statement_timeout', budget, true),
        set_config('idle_in_transaction_session_timeout', budget, true);
      perform pg_advisory_xact_lock(hashtextextended('decision:' || tx_name, 0));
      select to_jsonb(d) into found_final from (
        select id, decision, policy_version, policy_digest, matched_rules, reasons, content_digest
        from decisions
        where transaction_name = tx_name and decision in ('allow', 'deny') and replayed = false and replay_of is null
        order by seq limit 1
      ) d;
      if found_final is not null then
        return jsonb_build_object('final', found_final);
      end if;
      select to_jsonb(r) into found_review from (
        select id, transaction_name, vault, content_digest, opened_at, expires_at, opened_by, initiator, requirements, explanation
        from reviews where transaction_name = tx_name order by seq desc limit 1
      ) r;
      if found_review is not null then
        select coalesce(jsonb_agg(to_jsonb(a) order by a.seq), '[]'::jsonb) into found_actions from (
          select seq, id, at, transaction_name, content_digest, identity, action, "group", comment
          from review_actions where transaction_name = tx_name and content_digest = found_review->>'content_digest'
        ) a;
      end if;
      select to_jsonb(e) into found_failure from (
        select id, new_state from events
        where resource = tx_name and type = 'TRANSACTION_STATE_UPDATED' and new_state = any (failed_states)
        order by seq limit 1
      ) e;
      if found_failure is null and (args->>'evaluate')::boolean then
        -- One lock after another in the order given (ascending ids): queue, never deadlock.
        for lock_id in select x::int8 from jsonb_array_elements_text(args->'locks') as x loop
          perform pg_advisory_xact_lock(lock_id);
        end loop;
        with pieces as (
          select b.ord, s.amount, s.count
          from jsonb_to_recordset(args->'buckets') as b(ord int, hash text, width int, from_at timestamptz, until_at timestamptz)
          cross join lateral (
            select sum(v.amount) as amount, sum(v.count) as count from velocity_buckets v
            where v.group_hash = decode(b.hash, 'hex') and v.width_seconds = b.width and v.bucket_start >= b.from_at and v.bucket_start < b.until_at
          ) s
          union all
          select e.ord, s.amount, s.count
          from jsonb_to_recordset(args->'edges') as e(ord int, hash text, after_at timestamptz, until_at timestamptz)
          cross join lateral (
            select sum(c.amount) as amount, count(*) as count from velocity_charges c
            where c.group_hash = decode(e.hash, 'hex') and c.voided_at is null and c.charged_at > e.after_at and c.charged_at < e.until_at
          ) s
        )
        select coalesce(jsonb_agg(jsonb_build_object('ord', t.ord, 'amount', t.amount::text, 'count', t.count::text)), '[]'::jsonb) into found_totals
        from (select ord, coalesce(sum(amount), 0) as amount, coalesce(sum(count), 0) as count from pieces group by ord) t;
      end if;
      return jsonb_build_object('review', found_review, 'actions', coalesce(found_actions, '[]'::jsonb), 'failure', found_failure, 'totals', found_totals);
    end $$`.execute(db);

  await sql`
    create function countersign_decision_write(args jsonb, budget_ms double precision) returns void language plpgsql as $$
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
  await sql`drop function if exists countersign_decision_write(jsonb, double precision)`.execute(db);
  await sql`drop function if exists countersign_decision_read(jsonb, double precision)`.execute(db);
}
