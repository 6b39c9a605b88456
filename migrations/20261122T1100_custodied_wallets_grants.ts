import { sql, type Kysely } from "kysely";

/**
 * `address_book_wallets` (20261122T0800) was created before the database roles
 * (20261122T1000_audit_2_roles), so neither that migration's list of working tables nor its
 * default privileges cover it: give `countersign_writer` the same rights as on the other copy tables.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ exists: boolean }>`select audit_role_exists('countersign_writer') as exists`.execute(db);
  if (rows[0]?.exists === true) await sql`grant select, insert, update, delete on address_book_wallets to countersign_writer`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ exists: boolean }>`select audit_role_exists('countersign_writer') as exists`.execute(db);
  if (rows[0]?.exists === true) await sql`revoke all on address_book_wallets from countersign_writer`.execute(db);
}
