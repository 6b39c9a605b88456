/**
 * COUNTERSIGN_MAX_WINDOW_GROUPS: a batch whose transfers touch more velocity window groups than the
 * cap is denied with a reason naming the count, before any group lock is taken and with no charge.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { batchTransfer as batch } from "../../support/bodies.js";
import { CosignerSimulator } from "../../support/cosigner.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService, writeBundle } from "../../support/service.js";

const POLICY = `
version: "group-cap.1"
default: deny
windows:
  - {name: per_destination, duration: 1h, groupBy: [destination], measure: count}
rules:
  - id: transfers
    decision: allow
    when: {"==": [{"var": "tx.kind"}, "assetTransfer"]}
`;

describe("the velocity window-group cap", () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let cosigner: CosignerSimulator;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    service = await startTestService({ database: tdb.handle, policiesDir: writeBundle(POLICY), env: { COUNTERSIGN_MAX_WINDOW_GROUPS: "4" } });
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
  });

  it("a batch at the cap is decided by the policy and charged", async () => {
    const body = batch(4);
    expect((await cosigner.deliver(body)).verdict).toBe("signed");
    const charges = await tdb.handle.db.selectFrom("velocity_charges").select("id").where("transaction_name", "=", body.name).execute();
    expect(charges).toHaveLength(4);
  });

  it("a batch over the cap is denied with the count in the reason, recorded, and charges nothing", async () => {
    const body = batch(5);
    const delivery = await cosigner.deliver(body);
    expect(delivery.status).toBe(200);
    expect(delivery.body).toMatchObject({ signTransaction: false, reasons: ["too many velocity window groups (5 > 4)"] });
    const row = await tdb.handle.db.selectFrom("decisions").selectAll().where("transaction_name", "=", body.name).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ decision: "deny", sign_transaction: false, reasons: ["too many velocity window groups (5 > 4)"] });
    const charges = await tdb.handle.db.selectFrom("velocity_charges").select("id").where("transaction_name", "=", body.name).execute();
    expect(charges).toEqual([]);
    // Final like any deny: a repeat gets the same answer.
    expect((await cosigner.deliver(body)).body).toMatchObject({ signTransaction: false, reasons: ["too many velocity window groups (5 > 4)"] });
  });
});
