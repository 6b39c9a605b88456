import { sql, type Kysely } from "kysely";

/**
 * Database roles, so that the database itself (not only its triggers) refuses to rewrite history:
 *
 * - `countersign_writer`: what the service needs. INSERT and SELECT on the audit tables (no
 *   UPDATE, DELETE or TRUNCATE); read and write on the working tables (velocity ledger, address
 *   book copies), whose own triggers still guard them.
 * - `countersign_auditor`: SELECT on the audit tables and the audit views, nothing else.
 *
 * Both are NOLOGIN group roles: grant them to login roles (README "Database roles"). Roles belong
 * to the whole cluster, so they are created only when missing; a migrating user without
 * CREATEROLE skips creating them (with a notice) and grants only to roles that exist. Tables
 * created by later migrations get the writer's working-table privileges by default; a later
 * audit table is narrowed by `audit_chain_register` (20261122T1000_audit_3_chain).
 */
export const WRITER = "countersign_writer";
export const AUDITOR = "countersign_auditor";

const AUDIT_TABLES = ["decisions", "events", "event_effects"];
const WORKING_TABLES = [
  "velocity_groups",
  "velocity_charges",
  "velocity_buckets",
  "address_book_sync",
  "address_book_entries",
  "address_book_own_addresses",
  "address_book_external_wallets",
];
/** The velocity ledger is part of the record an auditor reads (what was charged, what was voided). */
const AUDITOR_EXTRA = ["velocity_groups", "velocity_charges", "transaction_states"];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const role of [WRITER, AUDITOR]) {
    await sql`
      do $$
      begin
        if not exists (select 1 from pg_roles where rolname = ${sql.lit(role)}) then
          begin
            execute format('create role %I nologin', ${sql.lit(role)});
          exception
            when duplicate_object or unique_violation then null; -- created meanwhile by another database's migration
            when insufficient_privilege then raise notice 'cannot create role %: create it as an administrator, then grant', ${sql.lit(role)};
          end;
        end if;
      end
      $$`.execute(db);
  }
  await sql`
    create function audit_role_exists(role text) returns boolean language sql stable
    as $$ select exists (select 1 from pg_roles where rolname = role) $$`.execute(db);

  if (await roleExists(db, WRITER)) {
    for (const table of AUDIT_TABLES) await sql`grant select, insert on ${sql.table(table)} to ${sql.id(WRITER)}`.execute(db);
    for (const table of WORKING_TABLES) await sql`grant select, insert, update, delete on ${sql.table(table)} to ${sql.id(WRITER)}`.execute(db);
    await sql`grant select on transaction_states to ${sql.id(WRITER)}`.execute(db);
    await sql`grant select on kysely_migration, kysely_migration_lock to ${sql.id(WRITER)}`.execute(db);
    await sql`grant execute on function decisions_ensure_partitions(integer) to ${sql.id(WRITER)}`.execute(db);
    await sql`alter default privileges in schema public grant select, insert, update, delete on tables to ${sql.id(WRITER)}`.execute(db);
  }
  if (await roleExists(db, AUDITOR)) {
    for (const table of [...AUDIT_TABLES, ...AUDITOR_EXTRA]) await sql`grant select on ${sql.table(table)} to ${sql.id(AUDITOR)}`.execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function roleExists(db: Kysely<any>, role: string): Promise<boolean> {
  const { rows } = await sql<{ exists: boolean }>`select audit_role_exists(${role}) as exists`.execute(db);
  return rows[0]?.exists === true;
}
