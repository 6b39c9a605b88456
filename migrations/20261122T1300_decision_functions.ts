import { sql, type Kysely } from "kysely";

/**
 * The decision's database work in two calls, so that a decision costs three round trips
 * (src/decision/session.ts): `begin; …; select countersign_decision_read(…)`, then
 * `select countersign_decision_write(…)`, then `commit`. PL/pgSQL plans each statement once per
 * session and keeps it: nothing is parsed or planned per decision.
 *
 * countersign_decision_read(args):
 *   - takes the transaction name's lock (every delivery of one name queues here);
 *   - returns the first final decision of the name, if any (a repeat: nothing else is read or locked);
 *   - else the name's latest review and its actions, and the first failure the platform reported;
 *   - and, when `evaluate` is true and no failure was reported, takes the window groups' locks in
 *     the order given (ascending ids: two transactions queue rather than deadlock) and reads each
 *     window's total from the bucket and edge pieces computed by src/velocity/window-plan.ts.
 * countersign_decision_write(args): the decision row, a review opened by it and review actions,
 *   the velocity groups, charges and buckets (widths from src/velocity/window-plan.ts).
 * Both are SECURITY INVOKER: they run with the caller's rights (countersign_writer).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function countersign_decision_read(args jsonb) returns jsonb language plpgsql as $$
    declare
      tx_name text := args->>'name';
      found_final jsonb;
      found_review jsonb;
      found_actions jsonb;
      found_failure jsonb;
      found_totals jsonb;
      lock_id int8;
    begin
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
        where resource = tx_name and type = 'TRANSACTION_STATE_UPDATED'
          and new_state in (select jsonb_array_elements_text(args->'failedStates'))
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
    create function countersign_decision_write(args jsonb) returns void language plpgsql as $$
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

      insert into review_actions (id, at, transaction_name, content_digest, identity, action, "group", comment)
      select id, at, transaction_name, content_digest, identity, action, "group", comment
      from jsonb_populate_recordset(null::review_actions, coalesce(args->'actions', '[]'::jsonb));

      if jsonb_array_length(coalesce(args->'charges', '[]'::jsonb)) > 0 then
        insert into velocity_groups (group_hash, group_key, first_charged_at)
        select decode(g.hash, 'hex'), g.key, g.at
        from jsonb_to_recordset(args->'groups') as g(hash text, key text, at timestamptz)
        on conflict (group_hash) do nothing;

        with input as (
          select c.decision_id, c.transaction_name, c.vault, c.transfer_index, decode(c.hash, 'hex') as group_hash, c.amount, c.charged_at
          from jsonb_to_recordset(args->'charges')
            as c(decision_id uuid, transaction_name text, vault text, transfer_index int, hash text, amount numeric, charged_at timestamptz)
        ), charged as (
          insert into velocity_charges (decision_id, transaction_name, vault, transfer_index, group_hash, amount, charged_at)
          select decision_id, transaction_name, vault, transfer_index, group_hash, amount, charged_at from input
        )
        insert into velocity_buckets as b (group_hash, width_seconds, bucket_start, amount, count)
        select i.group_hash, w.width::int, velocity_bucket_start(w.width::int, i.charged_at), sum(coalesce(i.amount, 0)), count(*)
        from input i cross join jsonb_array_elements_text(args->'widths') as w(width)
        group by 1, 2, 3
        on conflict (group_hash, width_seconds, bucket_start)
          do update set amount = b.amount + excluded.amount, count = b.count + excluded.count;
      end if;
    end $$`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function countersign_decision_write(jsonb)`.execute(db);
  await sql`drop function countersign_decision_read(jsonb)`.execute(db);
}
