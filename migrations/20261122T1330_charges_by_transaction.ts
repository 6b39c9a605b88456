import { sql, type Kysely } from "kysely";

/**
 * `velocity_charges_by_transaction (transaction_name)` repeated the leading column of the unique
 * `velocity_charges_once (transaction_name, transfer_index, group_hash)`, which serves the same
 * lookups (voiding a transaction's charges): one btree insert per charge for nothing.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`drop index velocity_charges_by_transaction`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`create index velocity_charges_by_transaction on velocity_charges (transaction_name)`.execute(db);
}
