import Big from "big.js";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../../src/database.js";
import { lockWindowGroups, readWindowTotals, recordCharges, voidCharges, countChargesAgain, windowTotalId, type WindowTotal } from "../../../src/velocity/ledger.js";
import { backends, chargeTransaction, secondsBefore } from "../../support/velocity.js";

// Deliberately not on a second, minute or hour: every edge cuts through buckets.
const NOW = new Date("2026-11-21T12:34:56.789Z");
const LONG_KEY = JSON.stringify([
  ["sourceWallet", ["wallet", `vaults/v1/wallets/${"w".repeat(5000)}`]],
  ["asset", "assets/native.ethereum-mainnet"],
]);

let keySeq = 0;
function freshKey(label: string): string {
  return JSON.stringify([["test", `${label}-${++keySeq}`]]);
}

/** A window's amount and count (its dollars: `dollars`). */
async function total(db: Db, key: string, durationSeconds: number, now = NOW): Promise<Omit<WindowTotal, "usd"> | undefined> {
  const found = await read(db, key, durationSeconds, now);
  return found && { amount: found.amount, count: found.count };
}

async function read(db: Db, key: string, durationSeconds: number, now = NOW): Promise<WindowTotal | undefined> {
  const totals = await readWindowTotals(db, [{ window: "w", key, durationSeconds }], now);
  return totals.get(windowTotalId("w", key));
}

const dollars = async (db: Db, key: string, durationSeconds: number, now = NOW) => (await read(db, key, durationSeconds, now))?.usd;

describe.each(backends)("velocity ledger on $name", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => ({ db, close } = await backend.open()));
  afterAll(async () => close?.());

  describe("window edges", () => {
    it.each([60, 90, 3600, 3661, 86_400])("a %i s window counts duration−1 s ago and not duration+1 s ago", async (d) => {
      const key = freshKey("edge");
      await chargeTransaction(db, [{ key, amount: "1", at: secondsBefore(NOW, d - 1) }]);
      await chargeTransaction(db, [{ key, amount: "10", at: secondsBefore(NOW, d + 1) }]);
      expect(await total(db, key, d)).toEqual({ amount: "1", count: 1 });
    });

    it("is exact to the millisecond at the old edge and includes the charge made now", async () => {
      const key = freshKey("ms");
      const d = 3600;
      await chargeTransaction(db, [{ key, amount: "1", at: secondsBefore(NOW, d) }]); // exactly now − d: out
      await chargeTransaction(db, [{ key, amount: "2", at: secondsBefore(NOW, d - 0.001) }]);
      await chargeTransaction(db, [{ key, amount: "4", at: NOW }]);
      expect(await total(db, key, d)).toEqual({ amount: "6", count: 2 });
      // One millisecond later the 2 has aged out too.
      expect(await total(db, key, d, new Date(NOW.getTime() + 1))).toEqual({ amount: "4", count: 1 });
    });

    it.each([60, 3600, 86_400])("leaves out a charge exactly %i s old when now is on a whole hour", async (d) => {
      const key = freshKey("aligned");
      const now = new Date("2026-11-21T12:00:00.000Z");
      await chargeTransaction(db, [{ key, amount: "1", at: secondsBefore(now, d) }]);
      await chargeTransaction(db, [{ key, amount: "2", at: secondsBefore(now, d - 0.001) }]);
      await chargeTransaction(db, [{ key, amount: "4", at: secondsBefore(now, d - 1) }]);
      expect(await total(db, key, d, now)).toEqual({ amount: "6", count: 2 });
    });

    it("counts a charge stamped after now (a transaction that committed while this one waited)", async () => {
      const key = freshKey("future");
      await chargeTransaction(db, [{ key, amount: "3", at: new Date(NOW.getTime() + 1500) }]);
      expect(await total(db, key, 60)).toEqual({ amount: "3", count: 1 });
    });

    it("agrees with a brute-force sum for charges at arbitrary instants, windows and read times", async () => {
      const key = freshKey("random");
      const charges: { at: number; amount: string }[] = [];
      let seed = 42;
      const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
      for (let i = 0; i < 150; i++) {
        const at = NOW.getTime() - Math.floor(random() * 2.2 * 86_400_000);
        charges.push({ at, amount: `${Math.floor(random() * 1000)}.${String(Math.floor(random() * 1e9)).padStart(9, "0")}` });
      }
      // Several charges per transaction, as a batch transfer would make.
      for (let i = 0; i < charges.length; i += 5) {
        const batch = charges.slice(i, i + 5).map((c, j) => ({ key, amount: c.amount, at: new Date(c.at), transferIndex: j }));
        await chargeTransaction(db, batch);
      }
      for (const d of [1, 59, 61, 3599, 3601, 86_399, 86_401, 2 * 86_400]) {
        for (const offsetMs of [0, -789, -17_123, -3_600_001, -40_000_000]) {
          const now = new Date(NOW.getTime() + offsetMs);
          const inWindow = charges.filter((c) => c.at > now.getTime() - d * 1000);
          const expected = inWindow.reduce((sum, c) => sum.plus(c.amount), new Big(0));
          expect(await total(db, key, d, now), `d=${d} offset=${offsetMs}`).toEqual({ amount: expected.toFixed(), count: inWindow.length });
        }
      }
    });
  });

  describe("amounts", () => {
    it("sums 18-decimal amounts exactly", async () => {
      const key = freshKey("decimals");
      for (let i = 0; i < 10; i++) await chargeTransaction(db, [{ key, amount: "0.100000000000000001", at: secondsBefore(NOW, i * 7) }]);
      await chargeTransaction(db, [{ key, amount: "123456789012345678.000000000000000009", at: NOW }]);
      expect(await total(db, key, 3600)).toEqual({ amount: "123456789012345679.000000000000000019", count: 11 });
    });

    it("counts a charge of unknown amount without adding to the amount", async () => {
      const key = freshKey("null");
      await chargeTransaction(db, [{ key, amount: "5", at: secondsBefore(NOW, 10) }]);
      await chargeTransaction(db, [{ key, amount: null, at: secondsBefore(NOW, 5) }]);
      expect(await total(db, key, 60)).toEqual({ amount: "5", count: 2 });
    });

    it("answers zero for a group never charged", async () => {
      expect(await total(db, freshKey("none"), 86_400)).toEqual({ amount: "0", count: 0 });
    });

    it("stores a long key once and reads it back by key", async () => {
      await chargeTransaction(db, [{ key: LONG_KEY, amount: "7", at: NOW }]);
      expect(await total(db, LONG_KEY, 60)).toEqual({ amount: "7", count: 1 });
      const groups = await db.selectFrom("velocity_groups").select("group_key").where("group_key", "=", LONG_KEY).execute();
      expect(groups).toHaveLength(1);
    });
  });

  it("reads many windows and groups in one call, keyed by windowTotalId", async () => {
    const a = freshKey("multi-a");
    const b = freshKey("multi-b");
    await chargeTransaction(db, [
      { key: a, amount: "1", at: secondsBefore(NOW, 30), transferIndex: 0 },
      { key: b, amount: "2", at: secondsBefore(NOW, 30), transferIndex: 0 },
    ]);
    await chargeTransaction(db, [{ key: a, amount: "4", at: secondsBefore(NOW, 7200) }]);
    const totals = await readWindowTotals(
      db,
      [
        { window: "hourly", key: a, durationSeconds: 3600 },
        { window: "daily", key: a, durationSeconds: 86_400 },
        { window: "daily", key: b, durationSeconds: 86_400 },
      ],
      NOW,
    );
    expect(Object.fromEntries(totals)).toEqual({
      [windowTotalId("hourly", a)]: { amount: "1", count: 1, usd: "0" },
      [windowTotalId("daily", a)]: { amount: "5", count: 2, usd: "0" },
      [windowTotalId("daily", b)]: { amount: "2", count: 1, usd: "0" },
    });
  });

  describe("dollars", () => {
    it("sums each charge's dollars across its pieces, exactly, whatever the amounts' assets", async () => {
      const key = freshKey("usd");
      await chargeTransaction(db, [{ key, amount: "43100", usd: "43095.69", at: secondsBefore(NOW, 7200) }]);
      await chargeTransaction(db, [{ key, amount: "2", usd: "6000.5", at: secondsBefore(NOW, 90) }]);
      await chargeTransaction(db, [{ key, amount: "1", usd: null, at: secondsBefore(NOW, 10) }]);
      expect(await dollars(db, key, 86_400)).toBe("49096.19");
      expect(await dollars(db, key, 3600)).toBe("6000.5");
      expect(await dollars(db, key, 30)).toBe("0");
    });

    it("a void lowers every window by exactly the dollars charged, and counting again raises it by them", async () => {
      const key = freshKey("usd-void");
      await chargeTransaction(db, [{ key, amount: "5", usd: "10.000000000000000001", at: secondsBefore(NOW, 7200) }]);
      const name = await chargeTransaction(db, [{ key, amount: "2", usd: "0.333333333333333333", at: secondsBefore(NOW, 50) }]);
      expect(await voidCharges(db, name, NOW)).toEqual({ voided: 1 });
      for (const d of [60, 3600, 86_400]) expect(await dollars(db, key, d)).toBe(d < 7200 ? "0" : "10.000000000000000001");
      await countChargesAgain(db, name);
      expect(await dollars(db, key, 86_400)).toBe("10.333333333333333334");
    });
  });

  describe("voids", () => {
    it("frees the room of a voided transaction in every window and group, once", async () => {
      const a = freshKey("void-a");
      const b = freshKey("void-b");
      await chargeTransaction(db, [{ key: a, amount: "100", at: secondsBefore(NOW, 100) }]);
      const name = await chargeTransaction(db, [
        { key: a, amount: "0.5", at: secondsBefore(NOW, 50), transferIndex: 0 },
        { key: b, amount: "0.5", at: secondsBefore(NOW, 50), transferIndex: 0 },
        { key: a, amount: null, at: secondsBefore(NOW, 50), transferIndex: 1 },
      ]);
      expect(await total(db, a, 3600)).toEqual({ amount: "100.5", count: 3 });

      expect(await voidCharges(db, name, NOW)).toEqual({ voided: 3 });
      for (const d of [1, 60, 3600, 86_400, 30 * 86_400]) {
        expect(await total(db, a, d)).toEqual(d < 100 ? { amount: "0", count: 0 } : { amount: "100", count: 1 });
      }
      expect(await total(db, b, 3600)).toEqual({ amount: "0", count: 0 });
      expect(await voidCharges(db, name, NOW)).toEqual({ voided: 0 });
      expect(await total(db, a, 3600)).toEqual({ amount: "100", count: 1 });
    });

    it("keeps the voided rows with their void time", async () => {
      const key = freshKey("history");
      const name = await chargeTransaction(db, [{ key, amount: "3", at: secondsBefore(NOW, 20) }]);
      await voidCharges(db, name, NOW);
      const rows = await db.selectFrom("velocity_charges").select(["amount", "voided_at"]).where("transaction_name", "=", name).execute();
      expect(rows).toEqual([{ amount: "3", voided_at: NOW }]);
    });

    it("does nothing for a transaction it never charged", async () => {
      expect(await voidCharges(db, "vaults/v1/transactions/never-seen", NOW)).toEqual({ voided: 0 });
    });
  });

  describe("guards", () => {
    it("refuses to charge a group whose lock this transaction did not take", async () => {
      const charge = { decisionId: "00000000-0000-4000-8000-000000000000", transactionName: "t", vault: "v", transferIndex: 0, key: "k", amount: "1", chargedAt: NOW };
      await expect(db.transaction().execute((trx) => recordCharges(trx, [charge]))).rejects.toThrow(/group lock/);
    });

    it("refuses to lock outside a transaction (the lock would be released at once)", async () => {
      await expect(lockWindowGroups(db, ["k"])).rejects.toThrow(/inside a database transaction/);
    });

    it.each(["1e3", "-5", "NaN", "Infinity", " 1", "0x10", "1."])("refuses the amount %j", async (amount) => {
      await expect(chargeTransaction(db, [{ key: freshKey("bad"), amount, at: NOW }])).rejects.toThrow(/plain decimal/);
    });

    it("has the database refuse rewriting or deleting a charge, and voiding one twice", async () => {
      const name = await chargeTransaction(db, [{ key: freshKey("immutable"), amount: "1", at: NOW }]);
      const rows = db.updateTable("velocity_charges").where("transaction_name", "=", name);
      await expect(rows.set({ amount: "0" }).execute()).rejects.toThrow(/keeps its history/);
      await expect(db.deleteFrom("velocity_charges").where("transaction_name", "=", name).execute()).rejects.toThrow(/keeps its history/);
      await expect(sql`truncate velocity_charges cascade`.execute(db)).rejects.toThrow(/keeps its history/);
      await rows.set({ voided_at: NOW }).execute();
      await expect(rows.set({ voided_at: new Date() }).execute()).rejects.toThrow(/keeps its history/);
    });
  });
});
