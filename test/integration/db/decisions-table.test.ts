import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../../src/database.js";
import { backends } from "../../support/backends.js";
import { decisionRow } from "../../support/decision-rows.js";

describe.each(backends)("decisions table on $name", (backend) => {
  let close: () => Promise<void>;
  let db: Db;
  beforeAll(async () => {
    ({ db, close } = await backend.open());
    await db.insertInto("decisions").values(decisionRow()).execute();
  });
  afterAll(async () => close?.());

  it("refuses UPDATE", async () => {
    await expect(db.updateTable("decisions").set({ decision: "deny", sign_transaction: false }).execute()).rejects.toThrow(/append-only/);
  });

  it("refuses DELETE", async () => {
    await expect(db.deleteFrom("decisions").execute()).rejects.toThrow(/append-only/);
  });

  it("refuses TRUNCATE, even with CASCADE", async () => {
    // Plain TRUNCATE is already refused by the ledger's foreign key; CASCADE would get past that.
    await expect(sql`truncate decisions cascade`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate decisions`.execute(db)).rejects.toThrow();
  });

  it("keeps the row it was asked to change", async () => {
    const rows = await db.selectFrom("decisions").select(["decision", "sign_transaction"]).execute();
    expect(rows).toEqual([{ decision: "allow", sign_transaction: true }]);
  });

  it("refuses a row whose answer contradicts its decision", async () => {
    await expect(
      db
        .insertInto("decisions")
        .values(decisionRow({ decision: "deny", sign_transaction: true }))
        .execute(),
    ).rejects.toThrow(/decisions_sign_matches_decision/);
  });
});
