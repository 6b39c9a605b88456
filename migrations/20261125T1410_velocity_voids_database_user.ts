import { sql, type Kysely } from "kysely";

/**
 * `velocity_voids.database_user` is set by the database, whatever an insert names (found by a
 * review). It was the column's default only, and the writer may insert every column of a chained
 * table but `seq` and `written_xid` (`audit_writer_insert_columns`), so whoever holds the writer's
 * login, as `countersign velocity void` does, could record a void as run by another database user:
 * the one part of the record the operator was not to choose. A BEFORE INSERT trigger now sets it
 * to `session_user` (the login, not a role set since). Manual voids are rare: the cost is nothing.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function velocity_voids_database_user() returns trigger language plpgsql as $$
    begin
      new.database_user := session_user;
      return new;
    end
    $$`.execute(db);
  await sql`create trigger velocity_voids_database_user before insert on velocity_voids
    for each row execute function velocity_voids_database_user()`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger velocity_voids_database_user on velocity_voids`.execute(db);
  await sql`drop function velocity_voids_database_user()`.execute(db);
}
