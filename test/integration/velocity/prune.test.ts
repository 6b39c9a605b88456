/**
 * Pruning the ledger (src/velocity/prune.ts, velocity_prune_batch): every window still in force reads
 * the same totals before and after; nothing a window of the bundle in force can read is deleted;
 * one batch deletes at most its bound; one pruner at a time; a late void still works.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Db } from "../../../src/database.js";
import { createLogger } from "../../../src/log.js";
import { pruneHorizon, pruneLedger, startLedgerPruner, type PruneHorizon } from "../../../src/velocity/prune.js";
import { FINE_BUCKETS_KEPT_SECONDS } from "../../../src/velocity/window-plan.js";
import { readWindowTotals, voidCharges, windowTotalId } from "../../../src/velocity/ledger.js";
import { backends, chargeTransaction, secondsBefore } from "../../support/velocity.js";

const DAY = 86_400;
const WINDOWS = [3600, DAY, 7 * DAY, 30 * DAY];
const RETENTION = 45 * DAY;

async function totals(db: Db, key: string, now: Date): Promise<string[]> {
  const queries = WINDOWS.map((d) => ({ window: `w${d}`, key, durationSeconds: d }));
  const read = await readWindowTotals(db, queries, now);
  return queries.map((q) => JSON.stringify(read.get(windowTotalId(q.window, key))));
}

async function counts(db: Db, h: PruneHorizon): Promise<Record<string, number>> {
  const { rows } = await sql<Record<string, string>>`select
    (select count(*) from velocity_buckets where width_seconds < 86400 and bucket_start >= ${h.fineBefore})::text as fine_kept,
    (select count(*) from velocity_buckets where width_seconds < 86400 and bucket_start < ${h.fineBefore})::text as fine_old,
    (select count(*) from velocity_buckets where width_seconds = 86400 and bucket_start >= ${h.chargesBefore}::timestamptz - interval '1 day')::text as days_kept,
    (select count(*) from velocity_charges where charged_at >= ${h.chargesBefore})::text as charges_kept,
    (select count(*) from velocity_charges where charged_at < ${h.chargesBefore})::text as charges_old`.execute(db);
  return Object.fromEntries(Object.entries(rows[0]!).map(([k, v]) => [k, Number(v)]));
}

describe.each(backends)("pruning the velocity ledger on $name", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  const now = new Date();
  const key = JSON.stringify([["sourceWallet", `w-${randomUUID()}`]]);
  let lateVoid = "";

  beforeAll(async () => {
    ({ db, close } = await backend.open());
    // A charge every 9 hours over 60 days: older than the retention, between it and the fine
    // floor, and inside every window.
    for (let hours = 0; hours < 60 * 24; hours += 9) {
      const name = await chargeTransaction(db, [{ key, amount: `${(hours % 7) + 0.000001}`, at: secondsBefore(now, hours * 3600 + 17) }]);
      if (hours === 40 * 24 + 3) lateVoid = name;
    }
  });
  afterAll(async () => close?.());

  it("keeps every total of a window in force, and all a window can read, while deleting what none can", async () => {
    const horizon = pruneHorizon(now, DAY, RETENTION);
    expect(horizon.fineBefore.getTime()).toBe(now.getTime() - (FINE_BUCKETS_KEPT_SECONDS + DAY) * 1000);
    const before = await totals(db, key, now);
    const kept = await counts(db, horizon);
    expect(kept.fine_old).toBeGreaterThan(0);
    expect(kept.charges_old).toBeGreaterThan(0);

    // One batch of 5 deletes at most 5 buckets and 5 charges.
    const first = await pruneLedger(db, horizon, { batch: 5, maxBatches: 1 });
    expect(first).toMatchObject({ elected: true, batches: 1 });
    expect(first.pruned).toBeGreaterThan(0);
    expect(first.pruned).toBeLessThanOrEqual(10);

    const rest = await pruneLedger(db, horizon, { batch: 7 });
    expect(rest.batches).toBeGreaterThan(1);
    const after = await counts(db, horizon);
    expect(after).toEqual({ ...kept, fine_old: 0, charges_old: 0 });
    expect(first.pruned + rest.pruned).toBeGreaterThanOrEqual(kept.fine_old! + kept.charges_old!);
    expect(await totals(db, key, now)).toEqual(before);
    // Nothing left to do.
    expect((await pruneLedger(db, horizon)).pruned).toBe(0);
  });

  it("still voids a charge whose fine buckets were pruned, lowering its day bucket", async () => {
    const before = await totals(db, key, now);
    expect(await voidCharges(db, lateVoid, now)).toEqual({ voided: 1 });
    expect(await totals(db, key, now)).toEqual(before); // 40 days old: outside every window here
    const { rows } = await sql<{ n: string }>`select count(*)::text as n from velocity_charges where transaction_name = ${lateVoid} and voided_at is not null`.execute(db);
    expect(rows[0]?.n).toBe("1");
  });

  it("refuses a horizon inside the last day", async () => {
    await expect(pruneLedger(db, { fineBefore: now, chargesBefore: secondsBefore(now, 2 * DAY) })).rejects.toThrow(/keeps at least the last day/);
    await expect(pruneLedger(db, { fineBefore: secondsBefore(now, 3 * DAY), chargesBefore: secondsBefore(now, 2 * DAY) })).rejects.toThrow(/as long as the finer/);
  });
});

describe("one pruner at a time", () => {
  const pg = backends[0]!;
  it("leaves the ledger alone while another session holds the pruner's lock", async () => {
    const { db, close } = await pg.open();
    try {
      const horizon = pruneHorizon(new Date(), DAY, RETENTION);
      await db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtextextended('countersign:velocity-pruner', 0))`.execute(trx);
        expect(await pruneLedger(db, horizon)).toEqual({ pruned: 0, batches: 0, elected: false });
      });
      expect(await pruneLedger(db, horizon)).toMatchObject({ elected: true });
    } finally {
      await close();
    }
  });
});

describe("pruneHorizon", () => {
  const now = new Date("2026-11-22T12:00:00.000Z");
  it("keeps fine buckets for the floor plus a day whatever the windows, and charges for the retention or the longest window plus a day", () => {
    const long = pruneHorizon(now, 90 * DAY, 10 * DAY);
    // A longer window reads its oldest partial day from the charges (window-plan.ts), not from
    // fine buckets: another replica's bundle can hold one the pruning replica does not know.
    expect((now.getTime() - long.fineBefore.getTime()) / 1000).toBe(FINE_BUCKETS_KEPT_SECONDS + DAY);
    expect(long.chargesBefore.toISOString()).toBe("2026-08-23T12:00:00.000Z"); // 91 days: a retention shorter than the window is raised to it
    const short = pruneHorizon(now, 3600, 400 * DAY);
    expect((now.getTime() - short.fineBefore.getTime()) / 1000).toBe(FINE_BUCKETS_KEPT_SECONDS + DAY);
    expect((now.getTime() - short.chargesBefore.getTime()) / 1000).toBe(400 * DAY);
  });
});

describe("the background pruner", () => {
  it("prunes on its schedule with the bundles' longest window, and reports the rows", async () => {
    const { db, close } = await backends[0]!.open();
    try {
      const key = JSON.stringify([["sourceWallet", `w-${randomUUID()}`]]);
      const now = new Date();
      await chargeTransaction(db, [{ key, amount: "1", at: secondsBefore(now, 50 * DAY) }]);
      await chargeTransaction(db, [{ key, amount: "1", at: secondsBefore(now, 60) }]);
      const reported: number[] = [];
      const pruner = startLedgerPruner({
        db,
        logger: createLogger({ write: () => undefined }),
        clock: () => new Date(),
        longestWindowSeconds: () => DAY,
        retentionSeconds: 40 * DAY,
        intervalMs: 20,
        onPruned: (rows) => reported.push(rows),
      });
      await vi.waitFor(() => expect(reported.length).toBeGreaterThan(0), { timeout: 20_000, interval: 20 });
      await pruner.stop();
      // The old charge, its minute, hour and day buckets.
      expect(reported[0]).toBe(4);
      const { rows } = await sql<{ n: string }>`select count(*)::text as n from velocity_charges`.execute(db);
      expect(rows[0]?.n).toBe("1");
    } finally {
      await close();
    }
  });
});
