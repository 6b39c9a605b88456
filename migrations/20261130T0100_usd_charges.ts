/**
 * Dollar windows (docs/interface.md section 10): a charge records its dollar value at the price of
 * its decision, and its asset (so `velocity_usage` shows amounts per asset and never adds two
 * assets' units: a group without `asset` holds charges of several), and each bucket keeps its charges' dollars beside their amount, so a `usd` window is
 * read from the same pieces as an amount window (flat in the number of charges) and a void lowers
 * the buckets by exactly what was charged. A charge made without a price (no dollar window needed
 * one) has no dollars and counts none. The decision row records every price it used (`prices`),
 * covered by the hash chain like its other columns.
 *
 * The decision read returns each piece's dollars too: a function's result columns cannot change by
 * `create or replace`, so the two read functions are dropped here and migrations/sql/ creates them
 * again; `velocity_usage` gains the asset as its second column, which `create or replace` cannot
 * insert, so it is dropped too. The charges' guard is replaced there as well (a charge's dollars and
 * asset never change). Charges recorded before this migration have no asset (null) and no dollars.
 */
import { sql, type Kysely } from "kysely";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table velocity_charges add column usd numeric
    constraint velocity_charges_usd_check check (usd >= 0 and usd < 'Infinity')`.execute(db);
  await sql`alter table velocity_charges add column asset text`.execute(db);
  await sql`alter table velocity_buckets add column usd numeric not null default 0
    constraint velocity_buckets_usd_check check (usd >= 0 and usd < 'Infinity')`.execute(db);
  await sql`alter table decisions add column prices jsonb`.execute(db);
  // The writer inserts only the columns it is granted (audit_chain_register): the new one too.
  await sql`
    do $$ begin
      if exists (select 1 from pg_roles where rolname = 'countersign_writer') then
        perform audit_writer_insert_columns('decisions'::regclass);
      end if;
    end $$`.execute(db);
  await sql`drop view if exists velocity_usage`.execute(db);
  await sql`drop function if exists countersign_decision_read_batch(jsonb, double precision)`.execute(db);
  await sql`drop function if exists countersign_decision_read(jsonb, double precision)`.execute(db);
}
