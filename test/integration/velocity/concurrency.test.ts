/**
 * No over-approval: two pools on one database (as two service processes would be) race 200
 * "lock → read → charge 10 if it still fits under 1000 → commit" transactions on one group.
 * Exactly 100 fit; without the group lock several would read the same total and all charge.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle, type Db } from "../../../src/database.js";
import { lockWindowGroups, readWindowTotals, recordCharges, voidCharges, windowTotalId } from "../../../src/velocity/ledger.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import Big from "big.js";
import { insertAllowDecision } from "../../support/velocity.js";

const NOW = new Date("2026-11-21T12:00:30.500Z");
const LIMIT = new Big("1000");
const KEY = JSON.stringify([
  ["sourceWallet", ["wallet", "vaults/v1/wallets/hot"]],
  ["asset", "assets/native.ethereum-mainnet"],
]);
const QUERY = { window: "daily", key: KEY, durationSeconds: 86_400 };

async function tryCharge(db: Db, i: number): Promise<boolean> {
  const transactionName = `vaults/v1/transactions/race-${i}`;
  return db.transaction().execute(async (trx) => {
    await lockWindowGroups(trx, [KEY]);
    const total = (await readWindowTotals(trx, [QUERY], NOW)).get(windowTotalId(QUERY.window, KEY));
    if (!total || new Big(total.amount).plus(10).gt(LIMIT)) return false;
    // Charges made "now" with a few ms of spread, as several processes' clocks would stamp them.
    const at = new Date(NOW.getTime() - (i % 7));
    const decisionId = await insertAllowDecision(trx, transactionName, at);
    await recordCharges(trx, [{ decisionId, transactionName, vault: "vaults/v1", transferIndex: 0, key: KEY, amount: "10", chargedAt: at }]);
    return true;
  });
}

describe("velocity charging from two service processes", () => {
  let tdb: TestDatabase;
  let other: DatabaseHandle;
  beforeAll(async () => {
    tdb = await createTestDatabase({ maxConnections: 10 });
    other = await openDatabase({ url: tdb.url, maxConnections: 10 });
  });
  afterAll(async () => {
    await other?.close();
    await tdb?.drop();
  });

  it("approves exactly as many as fit: 100 charges summing exactly 1000", async () => {
    const pools = [tdb.handle.db, other.db];
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => tryCharge(pools[i % 2]!, i)));
    expect(results.filter(Boolean)).toHaveLength(100);
    const total = (await readWindowTotals(tdb.handle.db, [QUERY], NOW)).get(windowTotalId(QUERY.window, KEY));
    expect(total).toEqual({ amount: "1000", count: 100, usd: "0" });
    const rows = await tdb.handle.db
      .selectFrom("velocity_charges")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(100);
  });

  it("keeps buckets exact when voids race charges on the same group", async () => {
    const pools = [tdb.handle.db, other.db];
    const charged = await tdb.handle.db.selectFrom("velocity_charges").select("transaction_name").orderBy("id").limit(20).execute();
    const voids = charged.map((c, i) => voidCharges(pools[i % 2]!, c.transaction_name, NOW));
    const charges = Array.from({ length: 40 }, (_, i) => tryCharge(pools[i % 2]!, 1000 + i));
    const [voided, approved] = await Promise.all([Promise.all(voids), Promise.all(charges)]);
    const freed = voided.reduce((n, v) => n + v.voided, 0);
    const total = (await readWindowTotals(tdb.handle.db, [QUERY], NOW)).get(windowTotalId(QUERY.window, KEY));
    const live = await tdb.handle.db
      .selectFrom("velocity_charges")
      .select((eb) => [eb.fn.sum<string>("amount").as("amount"), eb.fn.countAll<string>().as("n")])
      .where("voided_at", "is", null)
      .executeTakeFirstOrThrow();
    expect(freed).toBe(20);
    expect(total).toEqual({ amount: new Big(live.amount).toFixed(), count: Number(live.n), usd: "0" });
    expect(new Big(total!.amount).lte(LIMIT)).toBe(true);
    expect(Number(live.n)).toBe(100 - freed + approved.filter(Boolean).length);
  });

  it("never deadlocks when transactions lock overlapping groups listed in different orders", async () => {
    const pools = [tdb.handle.db, other.db];
    const keys = ["a", "b", "c", "d"].map((k) => JSON.stringify([["test", `order-${k}`]]));
    const results = await Promise.allSettled(
      Array.from({ length: 60 }, (_, i) =>
        pools[i % 2]!.transaction().execute(async (trx) => {
          // Every rotation and reversal of the same groups.
          const rotated = [...keys.slice(i % 4), ...keys.slice(0, i % 4)];
          const order = i % 8 < 4 ? rotated : rotated.reverse();
          await lockWindowGroups(trx, order.slice(0, 2 + (i % 3)));
          const name = `vaults/v1/transactions/order-${i}`;
          const decisionId = await insertAllowDecision(trx, name, NOW);
          await recordCharges(
            trx,
            order.slice(0, 2 + (i % 3)).map((key) => ({ decisionId, transactionName: name, vault: "vaults/v1", transferIndex: 0, key, amount: "1", chargedAt: NOW })),
          );
        }),
      ),
    );
    expect(results.filter((r) => r.status === "rejected")).toEqual([]);
  });
});
