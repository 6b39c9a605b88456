/**
 * Faults on the embedded default (PGlite under COUNTERSIGN_DATA_DIR, no DATABASE_URL), each
 * against `countersign serve` in child processes: a second process on the same data directory,
 * a command run beside the service, SIGKILL mid-load then a restart, a database gone from its
 * directory. After each, on the store:
 * every 200 has its committed row with the same answer, every signed transfer its charge, no
 * window group over its limit.
 */
import { cpSync, readdirSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { describe, expect, it, vi } from "vitest";
import { openDatabase } from "../../../src/database.js";
import { STORE_MARKER } from "../../../src/db/embedded-store.js";
import { runCli } from "../../support/cli.js";
import { CosignerSimulator } from "../../support/cosigner.js";
import { scratchDir } from "../../support/scratch.js";
import { writeBundle } from "../../support/service.js";
import { checkInvariants, countByStatus, POLICY, startLoad, startServiceProcess, type Answer, type ServiceProcess } from "../../support/faults.js";

// PGlite's start is most of each test's time and grows with the machine's load (seven starts in
// one test). Every start waits for the service's own line or its exit and every load is bounded in
// deliveries, so this timeout only ends a hang.
describe("embedded database faults", { timeout: 600_000 }, () => {
  const policiesDir = writeBundle(POLICY);

  const envFor = (dataDir: string) => ({ COUNTERSIGN_DATA_DIR: dataDir, COUNTERSIGN_POLICIES: policiesDir });

  const serve = (dataDir: string): Promise<ServiceProcess> => startServiceProcess(envFor(dataDir));

  async function stop(service: ServiceProcess): Promise<void> {
    service.child.kill("SIGTERM");
    await service.exited;
  }

  /** The invariants, and the signed transactions that have no live charge, read from the store. */
  async function inspect(dataDir: string, answers: readonly Answer[]) {
    const handle = await openDatabase({ dataDir });
    try {
      const report = await checkInvariants(handle.db, answers);
      const charged = new Set(
        (await sql<{ transaction_name: string }>`select transaction_name from velocity_charges where voided_at is null`.execute(handle.db)).rows.map((r) => r.transaction_name),
      );
      const uncharged = [...new Set(answers.filter((a) => a.delivery.verdict === "signed").map((a) => a.name))].filter((n) => !charged.has(n));
      return { ...report, uncharged };
    } finally {
      await handle.close();
    }
  }

  it("a second serve on the same data directory refuses to start, naming the holder; every 200 stays committed and no window passes its limit", async () => {
    const dataDir = path.join(scratchDir("embedded"), "data");
    const first = await serve(dataDir);
    let second: ServiceProcess | undefined;
    let refusal = "";
    try {
      second = await serve(dataDir);
    } catch (error) {
      refusal = String(error);
    }
    // Each wallet's deliveries alternate between the processes (when there are two): 60 a wallet
    // against a limit of 40.
    let turn = 0;
    const answers = await startLoad(() => (second && Math.floor(turn++ / 2) % 2 === 1 ? second.url : first.url), { concurrency: 6, maxDeliveries: 120 }).done;
    await stop(first);
    if (second) await stop(second);
    const report = await inspect(dataDir, answers);
    console.log(
      `[faults] embedded, second serve on the same data directory: ${second ? "started" : "refused"}; ${JSON.stringify(countByStatus(answers))}, window groups ${JSON.stringify(report.groups)}, ${report.problems.length} problems`,
    );
    expect(refusal).toContain("the embedded database is in use by process");
    expect(report.problems).toEqual([]);
    expect(report.uncharged).toEqual([]);
  });

  it("a command beside the service (migrate) is refused and leaves the service's store alone", async () => {
    const dataDir = path.join(scratchDir("embedded"), "data");
    const service = await serve(dataDir);
    const run = await runCli(["migrate"], { env: envFor(dataDir) });
    const answers = await startLoad(() => service.url, { concurrency: 4, maxDeliveries: 40 }).done;
    await stop(service);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`the embedded database is in use by process ${service.child.pid}`);
    expect((await inspect(dataDir, answers)).problems).toEqual([]);
  });

  it("a data directory whose database is gone (pgdata emptied or removed, PG_VERSION deleted) is refused, not filled with a fresh one; one it cannot open is refused naming the directory", async () => {
    const golden = path.join(scratchDir("embedded"), "data");
    const service = await serve(golden);
    const answers = await startLoad(() => service.url, { concurrency: 4, maxDeliveries: 20 }).done;
    await stop(service);
    expect(answers.filter((a) => a.delivery.verdict === "signed")).toHaveLength(20);
    const damages: Record<string, { damage: (pgdata: string) => void; refusal: string }> = {
      "PG_VERSION deleted": { damage: (pgdata) => rmSync(path.join(pgdata, "PG_VERSION")), refusal: "is missing: its pgdata has no PG_VERSION" },
      "pgdata emptied": {
        damage: (pgdata) => readdirSync(pgdata).forEach((f) => rmSync(path.join(pgdata, f), { recursive: true })),
        refusal: "is missing: its pgdata has no PG_VERSION",
      },
      "PG_VERSION deleted, in a directory made before the marker": {
        damage: (pgdata) => [path.join(pgdata, "PG_VERSION"), path.join(pgdata, "..", STORE_MARKER)].forEach((f) => rmSync(f)),
        refusal: "holds files but no PG_VERSION",
      },
      "pgdata removed": { damage: (pgdata) => rmSync(pgdata, { recursive: true }), refusal: "is missing: its pgdata has no PG_VERSION" },
    };
    // PGlite's own words were "PGlite failed to initialize properly" or "Aborted()", naming neither.
    const unopenable = (found: string) => `the embedded database under DIR could not be opened (${found}): damaged, or written by a PGlite of another Postgres major`;
    Object.assign(damages, {
      "written by Postgres 16": { damage: (pgdata: string) => writeFileSync(path.join(pgdata, "PG_VERSION"), "16\n"), refusal: unopenable("PG_VERSION 16") },
      "pg_control truncated": { damage: (pgdata: string) => truncateSync(path.join(pgdata, "global", "pg_control"), 100), refusal: unopenable("PG_VERSION 17") },
    });
    for (const [label, { damage, refusal }] of Object.entries(damages)) {
      const dataDir = path.join(scratchDir("embedded"), "data");
      cpSync(golden, dataDir, { recursive: true });
      damage(path.join(dataDir, "pgdata"));
      let outcome: string;
      try {
        const afresh = await serve(dataDir);
        // What a fresh store answers: the wallets' windows are empty again.
        const fresh = await startLoad(() => afresh.url, { concurrency: 4, maxDeliveries: 80 }).done;
        outcome = `started, ${fresh.filter((a) => a.delivery.verdict === "signed").length} of 80 signed where 60 fit`;
        await stop(afresh);
      } catch (error) {
        outcome = String(error);
      }
      expect(outcome, label).toContain(refusal.replace("DIR", dataDir));
    }
  });

  it("SIGKILL mid-load, then a restart on the same data directory: it starts, every 200 is committed as answered and charged, redeliveries replay", async () => {
    const dataDir = path.join(scratchDir("embedded"), "data");
    const wallets = Array.from({ length: 20 }, (_, i) => `vaults/5c3f1a2b9d7e/wallets/crash${i}`);
    let service = await serve(dataDir);
    const load = startLoad(() => service.url, { concurrency: 8, maxDeliveries: 2_000, timeoutMs: 5_000, wallets });
    await vi.waitFor(() => expect(load.answers.filter((a) => a.delivery.status === 200).length).toBeGreaterThanOrEqual(100), { timeout: 120_000, interval: 10 });
    service.child.kill("SIGKILL");
    await service.exited;
    const before = await load.stop();
    service = await serve(dataDir);
    const again: Answer[] = [];
    for (const a of before.filter((x) => x.delivery.status === 200)) {
      const startedAt = performance.now();
      const delivery = await new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` }).deliver(load.bodies.get(a.name));
      again.push({ name: a.name, url: service.url, startedAt, endedAt: performance.now(), delivery });
    }
    await stop(service);
    const report = await inspect(dataDir, [...before, ...again]);
    console.log(
      `[faults] embedded, SIGKILL mid-load and restart: before ${JSON.stringify(countByStatus(before))}, redelivered ${JSON.stringify(countByStatus(again))}, ${report.problems.length} problems`,
    );
    expect(report.problems).toEqual([]);
    expect(report.uncharged).toEqual([]);
    expect(again.every((a) => a.delivery.status === 200 && typeof (a.delivery.body as { replayOf?: string }).replayOf === "string")).toBe(true);
  });
});
