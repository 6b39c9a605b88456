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

  // Found by an adversarial review: the events endpoint keeps the charges of a transaction the
  // platform reported CONFIRMED (the money moved), and the README's "effects never completed" query
  // listed such a late failure for voiding by hand; `velocity void` freed the room of a confirmed
  // payment, so the wallet could spend it again inside the window.
  it("refuses a transaction the platform reported CONFIRMED: its charges keep counting", async () => {
    const service = await startTestService({ database: tdb.handle });
    const body = assetTransfer({ amount: "3" });
    const cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
    expect((await cosigner.deliver(body)).verdict).toBe("signed");
    await service.stop();
    for (const [id, state] of [[`evt-confirmed-${Date.now()}`, "CONFIRMED"], [`evt-failed-${Date.now()}`, "FAILED"]] as const) {
      const payload = { id, vault: body.name.split("/").slice(0, 2).join("/"), type: "TRANSACTION_STATE_UPDATED", resourceType: "TRANSACTION", resource: body.name, details: { transactionStateUpdated: { newState: state } } };
      await tdb.handle.db.insertInto("events").values({
        id, received_at: new Date(), vault: payload.vault, type: payload.type, resource_type: "TRANSACTION", resource: body.name, new_state: state,
        details: JSON.stringify(payload.details), payload: JSON.stringify(payload), body: Buffer.from(JSON.stringify(payload)), signature: "c2ln",
      }).execute();
    }

    const refused = await runCli(["velocity", "void", body.name], { env: { DATABASE_URL: tdb.url } });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain("CONFIRMED");
    const live = await tdb.handle.db.selectFrom("velocity_charges").select("id").where("transaction_name", "=", body.name).where("voided_at", "is", null).execute();
    expect(live.length).toBeGreaterThan(0);
  });
});
