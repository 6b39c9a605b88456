/**
 * The database refuses to prune what a window in force reads (velocity_window_claims,
 * migrations/sql/functions/velocity.sql; src/velocity/claims.ts).
 *
 * Retention was a process setting. The service ran with
 * COUNTERSIGN_LEDGER_RETENTION=1000d and a 900 d window; an operator's `countersign velocity prune`
 * with the default 400d deleted the charges the 900 d window read, and it approved past its limit.
 */
import path from "node:path";
import { randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "../../../src/database.js";
import { createLogger } from "../../../src/log.js";
import { pruneHorizon, pruneLedger, startLedgerPruner } from "../../../src/velocity/prune.js";
import { readWindowTotals, windowTotalId } from "../../../src/velocity/ledger.js";
import { FINE_BUCKETS_KEPT_SECONDS } from "../../../src/velocity/window-plan.js";
import { assetTransfer, transactionName, VAULT } from "../../support/bodies.js";
import { runCli } from "../../support/cli.js";
import { CosignerSimulator } from "../../support/cosigner.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService, writeBundle } from "../../support/service.js";
import { backends, chargeTransaction, secondsBefore } from "../../support/velocity.js";

const DAY = 86_400;
const EXAMPLE_POLICIES = path.resolve(import.meta.dirname, "../../../policies");

const policyWithWindow = (days: number) => `
version: "window-claims.${days}"
default: deny
windows:
  - {name: long, duration: ${days}d, groupBy: [sourceWallet, asset], measure: amount}
rules:
  - id: limit
    decision: deny
    reason: At most 10 in ${days} days
    when: {">": [{"var": "velocity.long.amountAfter"}, "10"]}
  - id: internal
    decision: allow
    when: {"var": "transfer.destination.internal"}
`;

async function chargeNames(db: Db): Promise<string[]> {
  const rows = await db.selectFrom("velocity_charges").select("transaction_name").orderBy("charged_at").execute();
  return rows.map((r) => r.transaction_name);
}

async function claim(db: Db, holder: string, windowSeconds: number): Promise<void> {
  await sql`select velocity_window_claim(${holder}, ${windowSeconds}::int, 3600)`.execute(db);
}

/** A dead replica: its claim is past its lapse (only the owner can write the table). */
async function lapse(db: Db, holder?: string): Promise<void> {
  const which = holder === undefined ? sql`true` : sql`holder = ${holder}`;
  await sql`update velocity_window_claims set lapses_at = now() - interval '1 second' where ${which}`.execute(db);
}

describe.each(backends)("velocity_prune_batch and the window claims on $name", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  const now = new Date();
  const key = JSON.stringify([["sourceWallet", `w-${randomUUID()}`]]);
  const total900 = async () => {
    const read = await readWindowTotals(db, [{ window: "long", key, durationSeconds: 900 * DAY }], new Date());
    return JSON.stringify(read.get(windowTotalId("long", key)));
  };

  beforeAll(async () => {
    ({ db, close } = await backend.open());
  });
  afterAll(async () => close?.());

  it("keeps the charges a claimed 900 d window reads when asked to prune past 400 d, and says so; a lapsed claim holds nothing", async () => {
    const inWindow = await chargeTransaction(db, [{ key, amount: "7", at: secondsBefore(now, 500 * DAY) }]);
    const pastWindow = await chargeTransaction(db, [{ key, amount: "5", at: secondsBefore(now, 950 * DAY) }]);
    const recent = await chargeTransaction(db, [{ key, amount: "1", at: secondsBefore(now, 60) }]);
    await claim(db, "replica-a", 900 * DAY);
    await claim(db, "replica-b", DAY);
    const before = await total900();
    expect(before).toContain('"amount":"8"');

    const result = await pruneLedger(db, pruneHorizon(now, DAY, 400 * DAY));
    expect(result).toMatchObject({ elected: true, kept: { windowSeconds: 900 * DAY } });
    // Kept since 901 days ago (the window plus a day), by the database's clock.
    const keptDays = (Date.now() - result.kept!.chargesKeptSince.getTime()) / 1000 / DAY;
    expect(keptDays).toBeGreaterThan(900.99);
    expect(keptDays).toBeLessThan(901.01);
    expect(await chargeNames(db)).toEqual([inWindow, recent]);
    expect(await total900()).toBe(before);
    expect(await chargeNames(db)).not.toContain(pastWindow);

    // The fine buckets are still pruned at 35 d plus a day: a window over 35 d reads none.
    const { rows } = await sql<{ n: string }>`select count(*)::text as n from velocity_buckets
      where width_seconds < 86400 and bucket_start < ${secondsBefore(now, FINE_BUCKETS_KEPT_SECONDS + DAY)}`.execute(db);
    expect(rows[0]?.n).toBe("0");

    await lapse(db, "replica-a");
    const after = await pruneLedger(db, pruneHorizon(now, DAY, 400 * DAY));
    expect(after.kept).toBeUndefined();
    expect(await chargeNames(db)).toEqual([recent]);
    const claims = await db.selectFrom("velocity_window_claims").select(["holder", "window_seconds"]).execute();
    expect(claims).toEqual([{ holder: "replica-b", window_seconds: DAY }]);
  });
});

describe("a service with a 900 d window and an operator's prune with the default retention", () => {
  let tdb: TestDatabase;
  let policiesDir: string;
  let now = new Date();
  let service: Awaited<ReturnType<typeof startTestService>> | undefined;
  const wallet = `${VAULT}/wallets/treasury-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    policiesDir = writeBundle(policyWithWindow(900));
    service = await startTestService({ database: tdb.handle, policiesDir, env: { COUNTERSIGN_LEDGER_RETENTION: "1000d" }, clock: () => now });
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
  });

  const claimedWindows = async () => {
    const rows = await tdb.handle.db.selectFrom("velocity_window_claims").select("window_seconds").where("lapses_at", ">", new Date()).execute();
    return rows.map((r) => r.window_seconds).sort((a, b) => a - b);
  };

  it("records its claim before it serves", async () => {
    expect(await claimedWindows()).toEqual([900 * DAY]);
  });

  it("still denies past the limit after `countersign velocity prune` ran with 400d, which says it kept the charges", async () => {
    const realNow = Date.now();
    const cosigner = new CosignerSimulator({ webhookUrl: `${service!.url}/v1/cosigner/webhook` });
    now = new Date(realNow - 500 * DAY * 1000);
    expect((await cosigner.deliver(assetTransfer({ name: transactionName("old"), amount: "10", source: wallet }))).verdict).toBe("signed");
    now = new Date(realNow);
    // A charge no window reads: the prune still deletes it.
    const unread = await chargeTransaction(tdb.handle.db, [{ key: JSON.stringify([["sourceWallet", "w-unread"]]), amount: "1", at: secondsBefore(new Date(realNow), 950 * DAY) }]);
    const charged = await chargeNames(tdb.handle.db);

    const run = await runCli(["velocity", "prune"], { env: { DATABASE_URL: tdb.url, COUNTERSIGN_POLICIES: EXAMPLE_POLICIES } });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/kept the charges and day buckets from \S+ to \S+: a window in force reads them \(a serving process claims a 900d window; kept for it plus a day\)/);
    expect(await chargeNames(tdb.handle.db)).toEqual(charged.filter((n) => n !== unread));

    const second = await cosigner.deliver(assetTransfer({ name: transactionName("new"), amount: "10", source: wallet }));
    expect(second.verdict).toBe("canceled");
    expect((second.body as { reasons: string[] }).reasons).toContain("At most 10 in 900 days");
  });

  it("claims a reloaded bundle's longer window before it takes effect", async () => {
    writeFileSync(path.join(policiesDir, "policy.yaml"), policyWithWindow(950));
    expect(await service!.policy.reload()).toBe(true);
    expect(await claimedWindows()).toEqual([900 * DAY, 950 * DAY]);
  });

  it("the background pruner of a replica with a 1 d window and 400 d retention keeps them too, and logs why", async () => {
    const lines: string[] = [];
    const pruner = startLedgerPruner({
      db: tdb.handle.db,
      logger: createLogger({ write: (line) => lines.push(line) }),
      clock: () => new Date(),
      longestWindowSeconds: () => DAY,
      retentionSeconds: 400 * DAY,
      intervalMs: 20,
    });
    await vi.waitFor(() => expect(lines.join("\n")).toContain("velocity ledger pruning kept charges a window in force reads"), { timeout: 20_000, interval: 20 });
    await pruner.stop();
    expect(await chargeNames(tdb.handle.db)).toHaveLength(1);
  });

  it("once the service stopped and its claims lapsed, the same prune deletes what only it read", async () => {
    await service!.stop();
    service = undefined;
    await lapse(tdb.handle.db);
    const run = await runCli(["velocity", "prune"], { env: { DATABASE_URL: tdb.url, COUNTERSIGN_POLICIES: EXAMPLE_POLICIES } });
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain("kept the charges");
    expect(await chargeNames(tdb.handle.db)).toEqual([]);
  });
});
