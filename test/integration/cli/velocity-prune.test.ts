import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../support/cli.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { chargeTransaction, secondsBefore } from "../../support/velocity.js";

const POLICIES = path.resolve(import.meta.dirname, "../../../policies");
const DAY = 86_400;

describe("countersign velocity prune", () => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.drop());

  async function charges(): Promise<string[]> {
    const rows = await tdb.handle.db.selectFrom("velocity_charges").select("transaction_name").orderBy("charged_at").execute();
    return rows.map((r) => r.transaction_name);
  }

  it("deletes charges past COUNTERSIGN_LEDGER_RETENTION and keeps the rest; refuses to guess without a bundle", async () => {
    const key = JSON.stringify([["sourceWallet", `w-${randomUUID()}`]]);
    const now = new Date();
    const old = await chargeTransaction(tdb.handle.db, [{ key, amount: "1", at: secondsBefore(now, 50 * DAY) }]);
    const kept = await chargeTransaction(tdb.handle.db, [{ key, amount: "2", at: secondsBefore(now, 39 * DAY) }]);
    const recent = await chargeTransaction(tdb.handle.db, [{ key, amount: "3", at: secondsBefore(now, 60) }]);

    const refused = await runCli(["velocity", "prune"], { env: { DATABASE_URL: tdb.url, COUNTERSIGN_POLICIES: "/nonexistent/policies", COUNTERSIGN_LEDGER_RETENTION: "40d" } });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain("nothing pruned");
    expect(await charges()).toEqual([old, kept, recent]);

    const env = { DATABASE_URL: tdb.url, COUNTERSIGN_POLICIES: POLICIES, COUNTERSIGN_LEDGER_RETENTION: "40d" };
    const run = await runCli(["velocity", "prune"], { env });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/pruned [1-9][0-9]* rows/);
    expect(await charges()).toEqual([kept, recent]);
  });

  it("refuses a retention that is not a duration", async () => {
    const run = await runCli(["velocity", "prune"], { env: { DATABASE_URL: tdb.url, COUNTERSIGN_POLICIES: POLICIES, COUNTERSIGN_LEDGER_RETENTION: "forever" } });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/COUNTERSIGN_LEDGER_RETENTION: must be a duration/);
  });
});
