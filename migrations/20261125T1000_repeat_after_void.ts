import { sql, type Kysely } from "kysely";
import { createDecisionRead } from "./20261124T0900_decision_statement_costs.js";

/**
 * A repeat of an allow whose charges were voided is no longer signed again (src/decision/decide.ts,
 * `repeat`). Voiding frees the window room on the premise that the transaction moved no money (the
 * platform reported it CANCELED, FAILED, DECLINED or DECLINED_BY_AML_POLICY, or an operator ran
 * `countersign velocity void`); a delivery asking for its signature again contradicts that premise,
 * and answering it with the first allow would sign a transfer that no window counts (found by a
 * review). The read's final decision now says whether any of its charges is voided; everything
 * else is 20261124T0900_decision_statement_costs's read unchanged.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
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
    begin
      -- Single function calls are PL/pgSQL simple expressions: no executor is started for them.
      perform set_config('lock_timeout', budget, true);
      perform set_config('statement_timeout', budget, true);
      perform set_config('idle_in_transaction_session_timeout', budget, true);
      perform pg_advisory_xact_lock(hashtextextended('decision:' || tx_name, 0));
      select jsonb_build_object('id', d.id, 'decision', d.decision, 'policy_version', d.policy_version, 'policy_digest', d.policy_digest,
          'matched_rules', d.matched_rules, 'reasons', d.reasons, 'content_digest', d.content_digest,
          -- Only for the one final row found: a fresh delivery finds none and pays nothing.
          'voided', exists (select 1 from velocity_charges c where c.decision_id = d.id and c.voided_at is not null))
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
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function countersign_decision_read(jsonb, double precision)`.execute(db);
  await createDecisionRead(db);
}
