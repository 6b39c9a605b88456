import { sql, type Kysely } from "kysely";

/**
 * `decision_judged_facts` (20261122T1000_audit_4_views) is to give a repeat the facts of the
 * decision it repeats, so that `decision_transfers` and `decision_log` show a repeat's transfers
 * (README "Views for compliance questions"). Two faults (found by a review of the audit trail):
 *
 * - Its lookup `where o.id = replay_of` read the column `o.replay_of`, not the argument: in a SQL
 *   function a column of the same name takes precedence. It matched nothing, and every repeat
 *   showed no transfers. The arguments are named with the function's name now.
 * - With that fixed, a second row carrying the repeated decision's id (a "twin", dated otherwise:
 *   `decisions` is unique on (id, decided_at) only; `audit verify` reports it as inserted) made the
 *   subquery return two rows, so both views, and every compliance query over them, failed with
 *   "more than one row returned by a subquery" exactly when the trail had been tampered with. It
 *   takes the sealed row, the one the chain holds (its entry's row_time is the row's decided_at; a
 *   twin is never sealed, the chain holding its key), and before the seal, the one written first.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function decision_judged_facts(facts jsonb, replay_of uuid, replayed boolean) returns jsonb
    language sql stable as $$
      select case
        when jsonb_array_length(decision_judged_facts.facts) > 0 or not decision_judged_facts.replayed then decision_judged_facts.facts
        else coalesce((
          select o.facts from decisions o
          left join audit_chain c on c.source = 'decisions' and c.row_key = o.id::text and c.row_time = o.decided_at
          where o.id = decision_judged_facts.replay_of
          order by c.position is null, o.seq
          limit 1), '[]'::jsonb)
      end
    $$`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function decision_judged_facts(facts jsonb, replay_of uuid, replayed boolean) returns jsonb
    language sql stable as $$
      select case
        when jsonb_array_length(facts) > 0 or not replayed then facts
        else coalesce((select o.facts from decisions o where o.id = replay_of), '[]'::jsonb)
      end
    $$`.execute(db);
}
