/**
 * A transaction the platform reports as ended in failure before the co-signer's first delivery of
 * it is never signed: that delivery is denied (final), naming the state and the event, and charges
 * nothing. Other states reported early (CREATED, PENDING_SIGNATURE) change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assetTransfer } from "../support/bodies.js";
import { CosignerSimulator } from "../support/cosigner.js";
import { eventKeys, sendEvent } from "../support/event-sender.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { writeTempPem } from "../support/service-account.js";
import { startTestService } from "../support/service.js";
import { stateUpdated, transactionCreated } from "../support/events/harness.js";

describe("events end to end: a failure reported before the first delivery", () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let cosigner: CosignerSimulator;
  let eventsUrl: string;
  let keyFile: { path: string; remove(): void };

  beforeAll(async () => {
    tdb = await createTestDatabase();
    keyFile = writeTempPem((await eventKeys()).platform.publicKeyPem, "events-public.pem");
    service = await startTestService({ database: tdb.handle, env: { COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE: keyFile.path } });
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
    eventsUrl = `${service.url}/v1/events`;
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
    keyFile?.remove();
  });

  it.each(["CANCELED", "EXPIRED", "DECLINED_BY_AML_POLICY"])("%s before the first delivery: denied for good, nothing charged", async (state) => {
    // An internal transfer the example policy would sign.
    const body = assetTransfer({ amount: "1" });
    const event = stateUpdated(body.name, state);
    expect((await sendEvent(eventsUrl, event)).status).toBe(200);

    const delivery = await cosigner.deliver(body);
    expect(delivery.verdict).toBe("canceled");
    const reason = `the platform reported this transaction ${state} (event ${event.id}) before it was decided`;
    expect(delivery.body).toMatchObject({ signTransaction: false, reasons: [reason] });
    const rows = await tdb.handle.db.selectFrom("decisions").selectAll().where("transaction_name", "=", body.name).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ decision: "deny", sign_transaction: false, reasons: [reason] });
    expect(await tdb.handle.db.selectFrom("velocity_charges").select("id").where("transaction_name", "=", body.name).execute()).toEqual([]);
    // Final: a redelivery repeats the denial.
    expect((await cosigner.deliver(body)).body).toMatchObject({ signTransaction: false, reasons: [reason] });
  });

  it("a CREATED event or a non-final state before the first delivery does not stop a signature", async () => {
    const body = assetTransfer({ amount: "1" });
    expect((await sendEvent(eventsUrl, transactionCreated(body.name))).status).toBe(200);
    expect((await sendEvent(eventsUrl, stateUpdated(body.name, "PENDING_SIGNATURE"))).status).toBe(200);
    expect((await cosigner.deliver(body)).verdict).toBe("signed");
  });

  it("a failure reported for another transaction of the vault changes nothing for this one", async () => {
    const body = assetTransfer({ amount: "1" });
    const other = assetTransfer({ amount: "1" });
    expect((await sendEvent(eventsUrl, stateUpdated(other.name, "CANCELED"))).status).toBe(200);
    expect((await cosigner.deliver(body)).verdict).toBe("signed");
  });
});
