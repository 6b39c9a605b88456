/**
 * Applies the migrations in `migrations/` (timestamp-prefixed, append-only after the baseline),
 * then the schema's functions, views and triggers from `migrations/sql/` (src/db/sql-sources.ts).
 * The same files run on a Postgres server and on PGlite. Migrations run under an advisory lock
 * (kysely's own), so several service processes starting together apply them once.
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Migrator, type Migration, type MigrationProvider, type MigrationResultSet } from "kysely";
import type { AnyDb } from "./any-db.js";
import { openConnection } from "./connect.js";
import { ensureGroupRoles, GroupRolesMissing } from "./group-roles.js";
import { applySqlSources } from "./sql-sources.js";

// src/db/migrate.ts and dist/src/db/migrate.js both sit two levels below their migrations folder.
const MIGRATIONS_DIR = fileURLToPath(new URL("../../migrations", import.meta.url));

const MIGRATION_FILE = /^[0-9]{8}T[0-9]{4}_[a-z0-9_]+\.(ts|js)$/;

/**
 * Like kysely's FileMigrationProvider, but the import happens here, so that the same loader that
 * runs this module (tsx, vitest, or plain node on dist/) also loads the migrations.
 */
class MigrationFolder implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await readdir(MIGRATIONS_DIR)).filter((f) => MIGRATION_FILE.test(f) && !f.endsWith(".d.ts"));
    const migrations: Record<string, Migration> = {};
    for (const file of files.sort()) {
      const module = (await import(pathToFileURL(path.join(MIGRATIONS_DIR, file)).href)) as Migration;
      migrations[file.replace(/\.(ts|js)$/, "")] = module;
    }
    return migrations;
  }
}

export function createMigrator(db: AnyDb): Migrator {
  return new Migrator({ db, provider: new MigrationFolder() });
}

/**
 * A failed migration run, with its cause in the message: it is all a migration Job's log or a
 * failed `serve` shows, and "failed" alone does not tell a refused connection from a bad migration.
 * `code` names a refusal whose remedy the message carries (group_roles_missing).
 */
export class MigrationError extends Error {
  readonly code: string | undefined;
  constructor(
    readonly failed: string | undefined,
    cause: unknown,
  ) {
    const why = cause instanceof Error ? cause.message : String(cause);
    const code = cause instanceof GroupRolesMissing ? cause.code : undefined;
    const what = failed === undefined ? `migrations could not run${code ? ` (${code})` : ""}` : `migration ${failed} failed`;
    super(`${what}: ${why}`, { cause });
    this.name = "MigrationError";
    this.code = code;
  }
}

/**
 * Ensures the group roles (src/db/group-roles.ts), applies every pending migration, then the SQL
 * sources; returns the names of the migrations applied.
 */
export async function migrateToLatest(db: AnyDb): Promise<string[]> {
  try {
    await ensureGroupRoles(db);
  } catch (error) {
    throw new MigrationError(undefined, error);
  }
  const result: MigrationResultSet = await createMigrator(db).migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === "Error")?.migrationName;
    throw new MigrationError(failed, result.error);
  }
  try {
    await applySqlSources(db);
  } catch (error) {
    throw new MigrationError("migrations/sql", error);
  }
  return (result.results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}

/**
 * Applies pending migrations through the owner's connection when one is configured
 * (COUNTERSIGN_MIGRATE_DATABASE_URL: the service itself then runs as the writer role, which may
 * not create or alter tables), else through the service's own server. Either way on a connection
 * of its own without the service's 10 s statement timeout: a migration that fills a table from the
 * audit trail takes longer on a large one, and failing it would keep every replica from starting. On the embedded PGlite (no URL), through `db`.
 */
export async function migrateAsOwner(db: AnyDb, ownerUrl: string | undefined, serviceUrl?: string): Promise<string[]> {
  const url = ownerUrl ?? serviceUrl;
  if (!url) return migrateToLatest(db);
  const owner = await openConnection({ url, maxConnections: 1, unboundedStatements: true });
  try {
    return await migrateToLatest(owner.db);
  } finally {
    await owner.close();
  }
}
