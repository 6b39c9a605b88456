/**
 * The schema's functions, views and triggers, each defined once in `migrations/sql/` and applied
 * with `create or replace` after the migrations on every `migrate`: today's definition of a
 * function is the one in its file, not in whichever migration last redefined it.
 *
 * Order: the function files (any order among them: `check_function_bodies` is off while they
 * load, so a body is checked when it first runs, as plpgsql bodies always are), then `views.sql`
 * (views in the order they depend on each other), then `triggers.sql` (they call the functions).
 *
 * Their GRANTs name the group roles, which `migrate` ensures exist before it runs anything
 * (src/db/group-roles.ts).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql, type Kysely } from "kysely";
import { splitStatements } from "./sql-statements.js";

// src/db/ and dist/src/db/ both sit two levels below their migrations folder.
const SQL_DIR = fileURLToPath(new URL("../../migrations/sql", import.meta.url));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Executor = Kysely<any>;

export function functionFiles(): string[] {
  const dir = path.join(SQL_DIR, "functions");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map((f) => path.join(dir, f));
}

export function sqlSourceFiles(): string[] {
  return [...functionFiles(), path.join(SQL_DIR, "views.sql"), path.join(SQL_DIR, "triggers.sql")];
}

/** Runs each statement of `files` in order, on `db` (a migration's transaction, or one of its own). */
export async function applySqlFiles(db: Executor, files: string[]): Promise<void> {
  await sql`set local check_function_bodies = off`.execute(db);
  for (const file of files) {
    for (const statement of splitStatements(readFileSync(file, "utf8"))) {
      await sql.raw(statement).execute(db);
    }
  }
}

/**
 * Applies every SQL source in one transaction, under an advisory lock: replicas starting together
 * would otherwise replace the same function at once ("tuple concurrently updated").
 */
export async function applySqlSources(db: Executor): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended('countersign:sql-sources', 0))`.execute(trx);
    await applySqlFiles(trx, sqlSourceFiles());
  });
}
