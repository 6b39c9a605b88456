import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { CosignerSimulator } from "../support/cosigner.js";
import { assetTransfer } from "../support/bodies.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { startTestService } from "../support/service.js";

describe("countersign velocity void NAME", () => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.drop());

  it("voids the charges of an allowed transaction once, and refuses a malformed name", async () => {
    const service = await startTestService({ database: tdb.handle });
    const body = assetTransfer({ amount: "2" });
    const cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
    expect((await cosigner.deliver(body)).verdict).toBe("signed");
    await service.stop();

    const env = { DATABASE_URL: tdb.url };
    const first = await runCli(["velocity", "void", body.name], { env });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/voided [1-9][0-9]* charges?/);
    const live = await tdb.handle.db.selectFrom("velocity_charges").select("id").where("transaction_name", "=", body.name).where("voided_at", "is", null).execute();
    expect(live).toEqual([]);

    const second = await runCli(["velocity", "void", body.name], { env });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("no charges to void");

    const bad = await runCli(["velocity", "void", "not-a-name"], { env });
    expect(bad.code).toBe(2);
  });
});
