/**
 * Totals live in the database, not in the process: closing the handle and opening a new one (a
 * restart, or another service process) reads the same totals.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "../../../src/database.js";
import { migrateToLatest } from "../../../src/db/migrate.js";
import { readWindowTotals, voidCharges, type WindowQuery } from "../../../src/velocity/ledger.js";
import { createTestDatabase } from "../../support/postgres.js";
import { chargeTransaction, secondsBefore } from "../../support/velocity.js";

const NOW = new Date("2026-11-21T08:15:42.321Z");
const KEY = JSON.stringify([
  ["sourceWallet", ["wallet", "vaults/v1/wallets/hot"]],
  ["asset", "assets/native.ethereum-mainnet"],
]);
const QUERIES: WindowQuery[] = [
  { window: "hourly", key: KEY, durationSeconds: 3600 },
  { window: "daily", key: KEY, durationSeconds: 86_400 },
];

async function seed(db: Db): Promise<void> {
  for (const [seconds, amount] of [
    [5, "1.5"],
    [59, "2.000000000000000001"],
    [3599, "3"],
    [3601, "4"],
    [86_000, null],
  ] as const) {
    await chargeTransaction(db, [{ key: KEY, amount, at: secondsBefore(NOW, seconds) }]);
  }
  const voided = await chargeTransaction(db, [{ key: KEY, amount: "1000", at: secondsBefore(NOW, 30) }]);
  await voidCharges(db, voided, NOW);
}

async function read(db: Db) {
  return Object.fromEntries(await readWindowTotals(db, QUERIES, NOW));
}

describe("velocity totals across a restart", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it("are equal after reopening embedded PGlite from its data directory", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "countersign-velocity-"));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const first = await openDatabase({ dataDir: dir });
    await migrateToLatest(first.db);
    await seed(first.db);
    const before = await read(first.db);
    await first.close();

    const second = await openDatabase({ dataDir: dir });
    cleanups.push(() => second.close());
    expect(await read(second.db)).toEqual(before);
    expect(Object.values(before)).toEqual([
      { amount: "6.500000000000000001", count: 3, usd: "0" },
      { amount: "10.500000000000000001", count: 5, usd: "0" },
    ]);
  });

  it("are equal after reopening a Postgres server connection", async () => {
    const tdb = await createTestDatabase();
    cleanups.push(() => tdb.drop());
    await seed(tdb.handle.db);
    const before = await read(tdb.handle.db);
    await tdb.handle.close();

    const reopened = await openDatabase({ url: tdb.url });
    try {
      expect(await read(reopened.db)).toEqual(before);
      expect(Object.values(before)).toEqual([
        { amount: "6.500000000000000001", count: 3, usd: "0" },
        { amount: "10.500000000000000001", count: 5, usd: "0" },
      ]);
    } finally {
      await reopened.close();
    }
  });
});
