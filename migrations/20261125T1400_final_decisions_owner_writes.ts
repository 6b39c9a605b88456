import { sql, type Kysely } from "kysely";

/**
 * `final_decisions` is written by its trigger alone, with the owner's rights (found by a review).
 *
 * 20261125T1200_final_decisions let the writer INSERT into it, because the row trigger on
 * `decisions` ran with the rights of whoever inserted the decision. The writer could then make any
 * row of its choosing a name's final decision before the service decided it: a `decisions` row
 * marked as a repeat of an allow (so no final decision for the trigger, `policy replay` or the
 * ledger's history) under a name the policy had only deferred, and a finals row pointing at it;
 * the next delivery was signed as a repeat of an allow nobody decided. A finals row naming no
 * decision at all also let its charges refer to no decision, since the charges' check trusts the
 * table first.
 *
 * Now `final_decisions_record` runs with its owner's rights (SECURITY DEFINER, `search_path`
 * pinned, as `audit_seal`), so every final decision any role inserts is still recorded, and the
 * writer keeps SELECT only: a finals row is a copy of a `decisions` row's name, id and time taken
 * by the trigger, or one the owner wrote. The definer's pinned `search_path` costs each final
 * decision about a microsecond more (a trigger inserting 100,000 rows: 0.40 s as invoker, 0.49 s
 * as definer on the test server), against the read's 3.33 million instructions.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter function final_decisions_record() security definer set search_path = pg_catalog, public, pg_temp`.execute(db);
  await sql`revoke all on function final_decisions_record() from public`.execute(db);
  await sql`
    do $$
    begin
      if exists (select 1 from pg_roles where rolname = 'countersign_writer') then
        revoke all on final_decisions from countersign_writer;
        grant select on final_decisions to countersign_writer;
      end if;
    end
    $$`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    do $$
    begin
      if exists (select 1 from pg_roles where rolname = 'countersign_writer') then
        grant insert on final_decisions to countersign_writer;
      end if;
    end
    $$`.execute(db);
  await sql`grant execute on function final_decisions_record() to public`.execute(db);
  await sql`alter function final_decisions_record() security invoker reset all`.execute(db);
}
