/**
 * The database a command reads or writes. `url` defaults to DATABASE_URL; `migrate` passes the
 * owner's (COUNTERSIGN_MIGRATE_DATABASE_URL) when set. Without a URL the embedded database is used —
 * but only `migrate` may create one: a verify, replay or void run where DATABASE_URL was forgotten
 * would otherwise read (or write) a fresh empty database and report on that.
 * `unboundedStatements` (migrate): no statement timeout.
 */
import { existsSync } from "node:fs";
import { loadConfig } from "../config.js";
import { embeddedDataPath } from "../db/connect.js";
import { openDatabase, type Db } from "../database.js";

export type WithDatabase = <T>(run: (db: Db) => Promise<T>) => Promise<T>;

export async function withDatabase<T>(run: (db: Db) => Promise<T>, url?: string, create = false, unboundedStatements = false): Promise<T> {
  const c = loadConfig();
  const target = url ?? c.databaseUrl;
  if (target === undefined && !create && !existsSync(embeddedDataPath(c.dataDir))) {
    throw new Error(`DATABASE_URL is unset and there is no embedded database at ${c.dataDir}: set DATABASE_URL (or COUNTERSIGN_DATA_DIR)`);
  }
  const handle = await openDatabase({ url: target, dataDir: c.dataDir, unboundedStatements });
  try {
    return await run(handle.db);
  } finally {
    await handle.close();
  }
}
