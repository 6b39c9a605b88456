import { sql, type Kysely } from "kysely";

/**
 * The velocity ledger's rows no longer carry foreign keys to `velocity_groups`. Each inserted
 * charge and each new bucket paid for one: a per-row check that locks the group's row FOR KEY
 * SHARE, which Postgres writes to the WAL — and which, for a busy wallet whose deliveries overlap,
 * turns into a multixact on that one row. Eight or more such locks per allowed decision, for a
 * guarantee the writers already give: countersign_decision_write (migration 20261122T1300) and
 * src/velocity/charge.ts insert the group, in the same transaction, before its charges and
 * buckets. `velocity_groups` stays the dictionary from hash to key.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table velocity_charges drop constraint velocity_charges_group_hash_fkey`.execute(db);
  await sql`alter table velocity_buckets drop constraint velocity_buckets_group_hash_fkey`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table velocity_buckets add constraint velocity_buckets_group_hash_fkey foreign key (group_hash) references velocity_groups (group_hash)`.execute(db);
  await sql`alter table velocity_charges add constraint velocity_charges_group_hash_fkey foreign key (group_hash) references velocity_groups (group_hash)`.execute(db);
}
