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
 * - The read starts as few executors as it can: the timeouts, the name's lock and each group's
 *   lock are single function calls (PL/pgSQL evaluates those without the executor; the lock ids
 *   and the failed states come as array literals, not jsonb to unnest), the lookups build their
 *   jsonb without a subquery around them, and the window totals come back per piece, in arrays
 *   (the service adds them up per window), instead of through a sort, a group and a jsonb per row.
 *   What it found comes back as OUT columns, not one jsonb built around it. A group's hash is
 *   sent once per window query, not once per piece.
 *
 * The one-argument functions stay (a process of the previous version may still call them during a
 * rolling upgrade); a later migration may drop them.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await createDecisionRead(db);
  await createDecisionWrite(db);
}

/** This version of the read; a later migration that replaces it restores it with this on the way down. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function createDecisionRead(db: Kysely<any>): Promise<void> {
  await sql`
    create function countersign_decision_read(
      args jsonb, budget_ms double precision,
      out final jsonb, out review jsonb, out actions jsonb, out failure jsonb,
      out total_ords int[], out total_amounts text[], out total_counts text[]
    ) language plpgsql as $$
    declare
      tx_name text := args->>'name';
      budget text := greatest(1, floor(budget_ms))::bigint::text;
      failed_states text[] := (args->>'failedStates')::text[];
      lock_id int8;
    begin
      -- Single function calls are PL/pgSQL simple expressions: no executor is started for them.
      perform set_config('lock_timeout', budget, true);
      perform set_config('statement_timeout', budget, true);
      perform set_config('idle_in_transaction_session_timeout', budget, true);
      perform pg_advisory_xact_lock(hashtextextended('decision:' || tx_name, 0));
      select jsonb_build_object('id', d.id, 'decision', d.decision, 'policy_version', d.policy_version, 'policy_digest', d.policy_digest,
          'matched_rules', d.matched_rules, 'reasons', d.reasons, 'content_digest', d.content_digest)
        into final
        from decisions d
        where d.transaction_name = tx_name and d.decision in ('allow', 'deny') and d.replayed = false and d.replay_of is null
        order by d.seq limit 1;
      if final is not null then
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
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function createDecisionWrite(db: Kysely<any>): Promise<void> {
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
