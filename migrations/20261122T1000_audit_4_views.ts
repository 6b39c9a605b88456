import { sql, type Kysely } from "kysely";

/**
 * Views that answer the common compliance questions without jsonb fluency (README "Querying the
 * audit trail"; docs/audit-queries.sql uses them):
 *
 * - `decision_transfers`: one row per transfer a decision judged, from the facts it recorded (a
 *   repeat shows the transfers of the final decision it repeats).
 * - `decision_log`: one row per decision, its transfers as arrays in transfer order.
 * - `denials_by_rule`: per UTC day and deny rule (or, with no rule, the first reason).
 * - `velocity_usage`: per velocity group: live use in the last hour and day, voided charges, last charge.
 * - `transaction_timeline`: decisions and events of each transaction; order by (at, seq). A later
 *   table (review actions) joins with `create or replace view` and one more `union all` branch.
 *
 * The views run with their owner's rights: the auditor role reads them without reading the tables
 * under them.
 */
export const AUDIT_VIEWS = ["decision_transfers", "decision_log", "denials_by_rule", "velocity_usage", "transaction_timeline"];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // The facts a decision's transfers were judged on: its own, or for a repeat those of its final decision.
  await sql`
    create function decision_judged_facts(facts jsonb, replay_of uuid, replayed boolean) returns jsonb
    language sql stable as $$
      select case
        when jsonb_array_length(facts) > 0 or not replayed then facts
        else coalesce((select o.facts from decisions o where o.id = replay_of), '[]'::jsonb)
      end
    $$`.execute(db);

  await sql`
    create view decision_transfers as
    select
      d.id as decision_id, d.decided_at, d.vault, d.transaction_name, d.decision, d.replayed,
      (f.doc #>> '{transfer,index}')::int as transfer_index,
      f.doc #>> '{transfer,network}' as network,
      f.doc #>> '{transfer,asset}' as asset,
      (f.doc #>> '{transfer,amount}')::numeric as amount,
      f.doc #>> '{transfer,rawAmount}' as raw_amount,
      f.doc #>> '{transfer,source,value}' as source,
      f.doc #>> '{transfer,source,wallet}' as source_wallet,
      f.doc #>> '{transfer,destination,value}' as destination,
      (f.doc #>> '{transfer,destination,internal}')::boolean as destination_internal,
      (f.doc #>> '{transfer,destination,inAddressBook}')::boolean as in_address_book,
      coalesce(f.doc #>> '{transfer,destination,addressBook,displayName}', f.doc #>> '{transfer,destination,addressBook,name}') as address_book_name,
      d.policy_version, d.seq
    from decisions d
    cross join lateral jsonb_array_elements(decision_judged_facts(d.facts, d.replay_of, d.replayed)) as f(doc)
    where jsonb_typeof(f.doc -> 'transfer') = 'object'`.execute(db);

  await sql`
    create view decision_log as
    select
      d.decided_at, d.id as decision_id, d.vault, d.transaction_name, d.decision, d.sign_transaction, d.http_status,
      d.replayed, d.replay_of,
      d.reasons ->> 0 as first_reason,
      d.policy_version, d.policy_digest,
      array(select distinct m ->> 'rule' from jsonb_array_elements(d.matched_rules) m order by 1) as matched_rules,
      t.transfer_count, t.assets, t.amounts, t.sources, t.destinations, t.address_book_names,
      d.request_id, d.duration_ms, d.seq
    from decisions d
    cross join lateral (
      select
        count(*)::int as transfer_count,
        array_agg(f.doc #>> '{transfer,asset}' order by (f.doc #>> '{transfer,index}')::int) as assets,
        array_agg((f.doc #>> '{transfer,amount}')::numeric order by (f.doc #>> '{transfer,index}')::int) as amounts,
        array_agg(f.doc #>> '{transfer,source,value}' order by (f.doc #>> '{transfer,index}')::int) as sources,
        array_agg(f.doc #>> '{transfer,destination,value}' order by (f.doc #>> '{transfer,index}')::int) as destinations,
        array_agg(coalesce(f.doc #>> '{transfer,destination,addressBook,displayName}', f.doc #>> '{transfer,destination,addressBook,name}')
          order by (f.doc #>> '{transfer,index}')::int) as address_book_names
      from jsonb_array_elements(decision_judged_facts(d.facts, d.replay_of, d.replayed)) as f(doc)
      where jsonb_typeof(f.doc -> 'transfer') = 'object'
    ) t`.execute(db);

  await sql`
    create view denials_by_rule as
    select
      (d.decided_at at time zone 'UTC')::date as day,
      coalesce(r.rule, '(' || coalesce(d.reasons ->> 0, 'no reason') || ')') as rule,
      count(distinct d.id)::int as denials,
      count(distinct d.transaction_name)::int as transactions,
      count(distinct d.vault)::int as vaults
    from decisions d
    left join lateral (
      select distinct m ->> 'rule' as rule from jsonb_array_elements(d.matched_rules) m where m ->> 'decision' = 'deny'
    ) r on true
    where d.decision = 'deny' and not d.replayed
    group by 1, 2`.execute(db);

  await sql`
    create view velocity_usage as
    select
      g.group_key,
      coalesce(sum(c.amount) filter (where c.voided_at is null and c.charged_at > now() - interval '1 hour'), 0) as used_amount_1h,
      count(*) filter (where c.voided_at is null and c.charged_at > now() - interval '1 hour')::int as used_count_1h,
      coalesce(sum(c.amount) filter (where c.voided_at is null and c.charged_at > now() - interval '1 day'), 0) as used_amount_24h,
      count(*) filter (where c.voided_at is null and c.charged_at > now() - interval '1 day')::int as used_count_24h,
      count(*) filter (where c.voided_at is not null)::int as voided_charges,
      max(c.charged_at) as last_charged_at,
      (array_agg(c.transaction_name order by c.charged_at desc, c.id desc))[1] as last_transaction
    from velocity_groups g
    join velocity_charges c on c.group_hash = g.group_hash
    group by g.group_key`.execute(db);

  await sql`
    create view transaction_timeline as
    select d.transaction_name, d.vault, d.decided_at as at,
      case when d.replayed then 'repeat' when d.replay_of is not null then 'conflict' else 'decision' end as kind,
      d.decision as outcome, d.reasons ->> 0 as detail,
      'decisions'::text as source, d.id::text as row_key, d.seq
    from decisions d
    union all
    select e.resource, e.vault, e.received_at, 'event', coalesce(e.new_state, e.type), e.type,
      'events'::text, e.id, e.seq
    from events e
    where e.resource like 'vaults/%/transactions/%'`.execute(db);

  await sql`
    do $$
    begin
      if exists (select 1 from pg_roles where rolname = 'countersign_auditor') then
        grant select on decision_transfers, decision_log, denials_by_rule, velocity_usage, transaction_timeline to countersign_auditor;
      end if;
      if exists (select 1 from pg_roles where rolname = 'countersign_writer') then
        grant select on decision_transfers, decision_log, denials_by_rule, velocity_usage, transaction_timeline to countersign_writer;
      end if;
    end
    $$`.execute(db);
}
