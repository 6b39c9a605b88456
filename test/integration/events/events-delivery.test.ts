import { describe, expect, it } from "vitest";
import { postDelivery, sendEvent, signedDelivery } from "../../support/event-sender.js";
import { eventId, stateUpdated, transactionCreated, walletAddressCreated, eventsSuite } from "../../support/events/harness.js";

describe("POST /v1/events stores what the platform signed", () => {
  const suite = eventsSuite();

  const rowsFor = (id: string) => suite.db.selectFrom("events").selectAll().where("id", "=", id).execute();

  it("stores a valid event once when it is delivered five times concurrently", async () => {
    const id = eventId();
    const delivery = await signedDelivery(stateUpdated("vaults/v1/transactions/t-five", "AWAITING_SIGNATURE", id));
    const responses = await Promise.all(Array.from({ length: 5 }, () => postDelivery(suite.app.url, delivery)));

    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    const duplicates = responses.map((r) => (r.body as { duplicate: boolean }).duplicate);
    expect(duplicates.filter((d) => !d)).toHaveLength(1);
    expect(responses.every((r) => (r.body as { received: boolean }).received === true)).toBe(true);
    const rows = await rowsFor(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ type: "TRANSACTION_STATE_UPDATED", new_state: "AWAITING_SIGNATURE", resource: "vaults/v1/transactions/t-five" });
    expect(Buffer.from(rows[0]!.body).equals(delivery.body)).toBe(true);
    expect(rows[0]!.signature).toBe(delivery.signature);
  });

  it("acknowledges and stores the console's TEST event", async () => {
    const id = eventId();
    const response = await sendEvent(suite.app.url, { id, type: "TEST" });
    expect(response).toEqual({ status: 200, body: { received: true, duplicate: false } });
    expect(await rowsFor(id)).toMatchObject([{ type: "TEST", vault: null, resource: null, new_state: null }]);
  });

  it("answers a redelivery 200 with duplicate: true", async () => {
    const delivery = await signedDelivery(transactionCreated("vaults/v1/transactions/t-re"));
    expect((await postDelivery(suite.app.url, delivery)).body).toEqual({ received: true, duplicate: false });
    expect((await postDelivery(suite.app.url, delivery)).body).toEqual({ received: true, duplicate: true });
  });

  it("stores unknown event types and unknown fields without acting on them", async () => {
    const id = eventId();
    const event = {
      id,
      vault: "vaults/v1",
      type: "TRANSACTION_AML_SCREENING_RESULT_READY",
      resourceType: "TRANSACTION",
      resource: "vaults/v1/transactions/t-aml",
      details: { transactionAmlScreeningResultReady: { action: "ALLOW" } },
      somethingNew: [1, 2, 3],
    };
    expect((await sendEvent(suite.app.url, event)).status).toBe(200);
    const [row] = await rowsFor(id);
    expect(row?.payload).toMatchObject({ somethingNew: [1, 2, 3] });
    expect(row?.details).toEqual({ transactionAmlScreeningResultReady: { action: "ALLOW" } });
    expect(suite.app.calls.transactionFailed).toEqual([]);
    expect(suite.app.calls.walletChanged).toEqual([]);
  });

  it("stores a state event for a transaction countersign never saw, and events out of order", async () => {
    const tx = `vaults/v9/transactions/t-${eventId()}`;
    expect((await sendEvent(suite.app.url, stateUpdated(tx, "CONFIRMED"))).status).toBe(200);
    expect((await sendEvent(suite.app.url, stateUpdated(tx, "SIGNED"))).status).toBe(200);
    expect((await sendEvent(suite.app.url, transactionCreated(tx))).status).toBe(200);
    const history = await suite.db.selectFrom("transaction_states").select("state").where("transaction_name", "=", tx).orderBy("seq").execute();
    expect(history.map((h) => h.state)).toEqual(["CONFIRMED", "SIGNED", "CREATED"]);
  });

  it("accepts a signed event whatever content type the platform declares", async () => {
    const id = eventId();
    const delivery = await signedDelivery(walletAddressCreated("vaults/v2", id));
    const response = await postDelivery(suite.app.url, delivery, { "content-type": "text/plain" });
    expect(response.status).toBe(200);
    expect(await rowsFor(id)).toHaveLength(1);
  });
});
