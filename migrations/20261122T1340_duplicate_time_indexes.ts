import { sql, type Kysely } from "kysely";

/**
 * `audit_chain_register` (20261122T1000_audit_3_chain) gives each registered table an index named
 * `<table>_by_<time column>`. `decisions` and `reviews` already had exactly that index under
 * another name (`decisions_by_time`, `reviews_by_time`), so each decision row paid for the same
 * btree twice. The copies go; the older names, which the code and docs use, stay.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists decisions_by_decided_at`.execute(db);
  await sql`drop index if exists reviews_by_opened_at`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index if not exists decisions_by_decided_at on decisions (decided_at)`.execute(db);
  await sql`create index if not exists reviews_by_opened_at on reviews (opened_at)`.execute(db);
}
