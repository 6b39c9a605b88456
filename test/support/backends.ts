/**
 * The two databases countersign runs on, for suites that must hold on both: a fresh migrated
 * database on the run's Postgres server, and an in-memory embedded PGlite; unmigrated, for suites
 * that test a migration on rows written before it.
 */
import { openDatabase, type Db } from "../../src/db/connect.js";
import { createMigrator, migrateToLatest } from "../../src/db/migrate.js";
import { createTestDatabase } from "./postgres.js";

export interface Backend {
  name: string;
  open(): Promise<{ db: Db; close(): Promise<void> }>;
}

export const backends: Backend[] = [
  {
    name: "a Postgres server",
    open: async () => {
      const tdb = await createTestDatabase();
      return { db: tdb.handle.db, close: () => tdb.drop() };
    },
  },
  {
    name: "embedded PGlite",
    open: async () => {
      const handle = await openDatabase({ dataDir: ":memory:" });
      await migrateToLatest(handle.db);
      return { db: handle.db, close: () => handle.close() };
    },
  },
];

export const unmigratedBackends: Backend[] = [
  {
    name: "a Postgres server",
    open: async () => {
      const tdb = await createTestDatabase({ migrate: false });
      return { db: tdb.handle.db, close: () => tdb.drop() };
    },
  },
  {
    name: "embedded PGlite",
    open: async () => {
      const handle = await openDatabase({ dataDir: ":memory:" });
      return { db: handle.db, close: () => handle.close() };
    },
  },
];

/** Applies every migration that sorts before `name`. */
export async function migrateToJustBefore(db: Db, name: string): Promise<void> {
  const migrator = createMigrator(db);
  const names = (await migrator.getMigrations()).map((m) => m.name).filter((n) => n < name);
  const result = await migrator.migrateTo(names.at(-1)!);
  if (result.error) throw result.error;
}
