/**
 * Service-process faults, each against `countersign serve` in child processes on a database of the
 * run's Postgres server: SIGTERM drains the request in flight and closes the pool; SIGKILL mid-load
 * then a restart; duplicate-delivery storms across two processes. After each: every 200 has its
 * committed row with the same answer, one final answer per name, no window group over its limit.
 */
import { sql } from "kysely";
import pg from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";
import { assetTransfer, transactionName, VAULT } from "../../support/bodies.js";
import { CosignerSimulator } from "../../support/cosigner.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { writeBundle } from "../../support/service.js";
import {
  checkInvariants,
  countByStatus,
  POLICY,
  startLoad,
  startServiceProcess,
  untilAnswered,
  untilAnswering,
  WALLETS,
  type Answer,
  type ServiceProcess,
} from "../../support/faults.js";

/** Once `condition` holds: polled, never slept on. */
const until = (condition: () => boolean | Promise<boolean>, timeout = 30_000) => vi.waitFor(async () => expect(await condition()).toBe(true), { timeout, interval: 20 });

describe("service-process faults", () => {
  const policiesDir = writeBundle(POLICY);
  /** The storm's two processes and database, reused by the SIGKILL test. */
  let storm: { tdb: TestDatabase; a: ServiceProcess; b: ServiceProcess } | undefined;
  const started: ServiceProcess[] = [];
  const databases: TestDatabase[] = [];

  afterAll(async () => {
    for (const s of started) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill("SIGKILL");
    for (const d of databases) await d.drop().catch(() => undefined);
  });

  async function freshDatabase(): Promise<TestDatabase> {
    const tdb = await createTestDatabase();
    databases.push(tdb);
    return tdb;
  }

  async function serve(tdb: TestDatabase, env: Record<string, string> = {}): Promise<ServiceProcess> {
    const service = await startServiceProcess({ DATABASE_URL: tdb.url, COUNTERSIGN_POLICIES: policiesDir, ...env });
    started.push(service);
    return service;
  }

  const countersignSessions = async (tdb: TestDatabase) =>
    Number(
      (
        await sql<{
          n: string;
        }>`select count(*)::text as n from pg_stat_activity where datname = current_database() and application_name = 'countersign' and pid <> pg_backend_pid()`.execute(
          tdb.handle.db,
        )
      ).rows[0]!.n,
    );

  it("SIGTERM: refuses new connections, finishes the decision in flight with its row committed, closes the pool, exits 0", async () => {
    const tdb = await freshDatabase();
    // A deadline far beyond the test's own waits: on a loaded machine the default 5 s could end the
    // held decision with a 503 before SIGTERM is even observed, which is not what this test is about.
    const service = await serve(tdb, { COUNTERSIGN_DECISION_TIMEOUT: "60s" });
    const body = assetTransfer({ amount: "1", source: WALLETS[0] });
    // Hold the transaction's decision lock so that its delivery is in flight when SIGTERM comes.
    const holder = new pg.Client({ connectionString: tdb.url });
    await holder.connect();
    await holder.query("select pg_advisory_lock(hashtextextended($1, 0))", [`decision:${body.name}`]);
    let settled = false;
    const inFlight = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` }).deliver(body).finally(() => (settled = true));
    await until(async () => (await holder.query("select 1 from pg_locks where locktype = 'advisory' and not granted")).rowCount! > 0);

    service.child.kill("SIGTERM");
    await until(
      async () =>
        await fetch(`${service.url}/healthz`).then(
          () => false,
          () => true,
        ),
    );
    expect(settled).toBe(false);

    await holder.query("select pg_advisory_unlock_all()");
    await holder.end();
    const delivery = await inFlight;
    expect(delivery.verdict).toBe("signed");
    const row = await tdb.handle.db.selectFrom("decisions").select(["id", "decision"]).where("transaction_name", "=", body.name).executeTakeFirstOrThrow();
    expect(row).toEqual({ id: (delivery.body as { decisionId: string }).decisionId, decision: "allow" });
    expect(await service.exited).toEqual({ code: 0, signal: null });
    expect(service.stdout.some((l) => l.includes("stopped: requests drained, database closed"))).toBe(true);
    await until(async () => (await countersignSessions(tdb)) === 0, 5_000);
    console.log(`[faults] SIGTERM with 1 decision in flight: answered ${delivery.status}, row committed, exit 0, 0 sessions left`);
  });

  it("duplicate-delivery storms across two processes: one final answer per name, charged once, no window over its limit", async () => {
    const tdb = await freshDatabase();
    const a = await serve(tdb);
    const b = await serve(tdb);
    storm = { tdb, a, b };
    const NAMES = 30;
    const COPIES = 6;
    // 3 a transfer, 15 names per wallet: 45 asked of a limit of 40, so each wallet's last ones are denied.
    const bodies = Array.from({ length: NAMES }, (_, i) => assetTransfer({ name: transactionName("storm"), amount: "3", source: WALLETS[i % 2] }));
    const answers: Answer[] = [];
    for (let round = 0; round < NAMES; round += 10) {
      const batch = bodies.slice(round, round + 10).flatMap((body) => Array.from({ length: COPIES }, (_, copy) => ({ body, service: copy % 2 === 0 ? a : b })));
      await Promise.all(
        batch.map(async ({ body, service }) => {
          const startedAt = performance.now();
          const delivery = await new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` }).deliver(body);
          answers.push({ name: body.name, url: service.url, startedAt, endedAt: performance.now(), delivery });
        }),
      );
    }
    const report = await checkInvariants(tdb.handle.db, answers);
    const replays = await tdb.handle.db.selectFrom("decisions").select("id").where("replayed", "=", true).execute();
    const signed = new Set(answers.filter((x) => x.delivery.verdict === "signed").map((x) => x.name)).size;
    console.log(
      `[faults] duplicate storms: ${NAMES} names × ${COPIES} copies over 2 processes ${JSON.stringify(countByStatus(answers))}, ${signed} names signed, ${NAMES - signed} not, ${replays.length} replayed rows, window groups ${JSON.stringify(report.groups)}`,
    );
    expect(report.problems).toEqual([]);
    expect(report.names).toBeGreaterThan(0);
    // Each wallet: 13 transfers of 3 fit in 40.
    for (const amount of Object.values(report.groups)) expect(Number(amount)).toBeLessThanOrEqual(40);
  });
  it("SIGKILL of one of them mid-load, then a restart: every 200 is committed as answered, redeliveries agree, no window over its limit", async () => {
    const tdb = storm!.tdb;
    let a = storm!.a;
    const b = storm!.b;
    const wallets = [`${VAULT}/wallets/faultC`, `${VAULT}/wallets/faultD`];
    const load = startLoad(() => a.url, { concurrency: 6, maxDeliveries: 60, repeatEvery: 5, timeoutMs: 5_000, wallets });
    await untilAnswered(load, 30);
    a.child.kill("SIGKILL");
    await a.exited;
    const before = await load.stop();
    a = await serve(tdb);
    await untilAnswering(() => a.url);
    // The co-signer asks again about everything: each name once more, to either process.
    const again: Answer[] = [];
    for (const [i, name] of [...load.bodies.keys()].entries()) {
      const url = i % 2 === 0 ? a.url : b.url;
      const startedAt = performance.now();
      const delivery = await new CosignerSimulator({ webhookUrl: `${url}/v1/cosigner/webhook` }).deliver(load.bodies.get(name));
      again.push({ name, url, startedAt, endedAt: performance.now(), delivery });
    }
    const after = await startLoad(() => a.url, { concurrency: 6, maxDeliveries: 60, wallets }).done;
    const answers = [...before, ...again, ...after];
    const report = await checkInvariants(tdb.handle.db, answers);
    console.log(
      `[faults] service SIGKILLed mid-load and restarted: before ${JSON.stringify(countByStatus(before))}, every name redelivered ${JSON.stringify(countByStatus(again))}, ${report.answered200} answers of 200 over ${report.names} names checked, window groups ${JSON.stringify(report.groups)}, answering again after the restart`,
    );
    expect(report.problems).toEqual([]);
    expect(again.filter((x) => x.delivery.status !== 200)).toEqual([]);
  });
});
