/**
 * The two databases countersign runs on, for suites that must hold on both: a fresh migrated
 * database on the run's Postgres server, and an in-memory embedded PGlite.
 */
import { openDatabase, type Db } from "../../src/database.js";
import { migrateToLatest } from "../../src/db/migrate.js";
import { createTestDatabase } from "./postgres.js";

export interface Backend {
  name: string;
  open(): Promise<{ db: Db; close: () => Promise<void> }>;
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
