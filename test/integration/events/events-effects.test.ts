import { describe, expect, it } from "vitest";
import { VOIDING_STATES } from "../../../src/events/effects.js";
import { postDelivery, sendEvent, signedDelivery } from "../../support/event-sender.js";
import { eventId, stateUpdated, walletAddressCreated, eventsSuite } from "../../support/events/harness.js";

describe("POST /v1/events effects", () => {
  const suite = eventsSuite();

  const effectRows = (id: string) => suite.db.selectFrom("event_effects").selectAll().where("event_id", "=", id).execute();
  const eventRows = (id: string) => suite.db.selectFrom("events").select("id").where("id", "=", id).execute();

  it("a CANCELED state voids the transaction's charges once; a redelivery does not run it again", async () => {
    const id = eventId();
    const delivery = await signedDelivery(stateUpdated("vaults/v1/transactions/t-cancel", "CANCELED", id));

    expect((await postDelivery(suite.app.url, delivery)).status).toBe(200);
    expect(suite.app.calls.transactionFailed).toEqual([{ transactionName: "vaults/v1/transactions/t-cancel", state: "CANCELED" }]);
    expect(await effectRows(id)).toMatchObject([{ effect: "void-charges" }]);

    expect((await postDelivery(suite.app.url, delivery)).body).toEqual({ received: true, duplicate: true });
    expect(suite.app.calls.transactionFailed).toHaveLength(1);
  });

  it.each([...VOIDING_STATES])("%s calls onTransactionFailed", async (state) => {
    expect((await sendEvent(suite.app.url, stateUpdated("vaults/v1/transactions/t-fail", state))).status).toBe(200);
    expect(suite.app.calls.transactionFailed).toEqual([{ transactionName: "vaults/v1/transactions/t-fail", state }]);
  });

  // A dropped, replaced or expired transaction may have a signature that still executes: its room stays taken.
  it.each(["DROPPED", "EXPIRED", "REPLACED", "SIGNED", "MINED_FAILED", "AWAITING_SIGNATURE", "SOMETHING_NEW"])("%s calls nothing", async (state) => {
    const id = eventId();
    expect((await sendEvent(suite.app.url, stateUpdated("vaults/v1/transactions/t-ok", state, id))).status).toBe(200);
    expect(suite.app.calls.transactionFailed).toEqual([]);
    expect(suite.app.calls.transactionConfirmed).toEqual([]);
    expect(await effectRows(id)).toEqual([]);
  });

  // The money moved: charges voided before (a DROPPED transaction voided by hand, then mined) count again.
  it("CONFIRMED calls onTransactionConfirmed once; a redelivery does not run it again", async () => {
    const id = eventId();
    const delivery = await signedDelivery(stateUpdated("vaults/v1/transactions/t-confirmed", "CONFIRMED", id));
    expect((await postDelivery(suite.app.url, delivery)).status).toBe(200);
    expect(suite.app.calls.transactionConfirmed).toEqual(["vaults/v1/transactions/t-confirmed"]);
    expect(suite.app.calls.transactionFailed).toEqual([]);
    expect(await effectRows(id)).toMatchObject([{ effect: "count-charges-again" }]);
    expect((await postDelivery(suite.app.url, delivery)).body).toEqual({ received: true, duplicate: true });
    expect(suite.app.calls.transactionConfirmed).toHaveLength(1);
  });

  it("a failure reported after CONFIRMED voids nothing: the money moved (every delivery of it, and any failure state)", async () => {
    const name = "vaults/v1/transactions/t-confirmed-then-failed";
    expect((await sendEvent(suite.app.url, stateUpdated(name, "CONFIRMED"))).status).toBe(200);
    for (const state of ["FAILED", "REPLACED"]) {
      const id = eventId();
      const delivery = await signedDelivery(stateUpdated(name, state, id));
      expect((await postDelivery(suite.app.url, delivery)).status).toBe(200);
      expect((await postDelivery(suite.app.url, delivery)).status).toBe(200);
      expect(await eventRows(id)).toHaveLength(1);
      expect(await effectRows(id)).toEqual([]);
    }
    expect(suite.app.calls.transactionFailed).toEqual([]);
    // Another transaction's CONFIRMED changes nothing for this one.
    expect((await sendEvent(suite.app.url, stateUpdated("vaults/v1/transactions/t-other", "CANCELED"))).status).toBe(200);
    expect(suite.app.calls.transactionFailed).toEqual([{ transactionName: "vaults/v1/transactions/t-other", state: "CANCELED" }]);
  });

  it("WALLET_ADDRESS_CREATED and WALLET_CREATED re-sync the vault's wallets", async () => {
    expect((await sendEvent(suite.app.url, walletAddressCreated("vaults/v7"))).status).toBe(200);
    const walletCreated = { id: eventId(), vault: "vaults/v8", type: "WALLET_CREATED", resourceType: "WALLET", resource: "vaults/v8/wallets/w2" };
    expect((await sendEvent(suite.app.url, walletCreated)).status).toBe(200);
    expect(suite.app.calls.walletChanged).toEqual(["vaults/v7", "vaults/v8"]);
  });

  it("a failing effect answers 503 with the event stored once, and the redelivery runs it again", async () => {
    const id = eventId();
    const delivery = await signedDelivery(stateUpdated("vaults/v1/transactions/t-retry", "DECLINED", id));
    suite.app.calls.failNext = 1;

    const first = await postDelivery(suite.app.url, delivery);
    expect(first.status).toBe(503);
    expect(first.body).toMatchObject({ error: { code: "UNAVAILABLE", requestId: expect.any(String) } });
    expect(JSON.stringify(first.body)).not.toContain("effect unavailable (test)");
    expect(await eventRows(id)).toHaveLength(1);
    expect(await effectRows(id)).toEqual([]);

    const redelivery = await postDelivery(suite.app.url, delivery);
    expect(redelivery).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect(suite.app.calls.transactionFailed).toHaveLength(2);
    expect(await eventRows(id)).toHaveLength(1);
    expect(await effectRows(id)).toHaveLength(1);

    expect((await postDelivery(suite.app.url, delivery)).status).toBe(200);
    expect(suite.app.calls.transactionFailed).toHaveLength(2);
  });

  it("five concurrent deliveries of a failed-state event: one row, the effect completed, recorded once", async () => {
    const id = eventId();
    const delivery = await signedDelivery(stateUpdated("vaults/v1/transactions/t-race", "FAILED", id));
    const responses = await Promise.all(Array.from({ length: 5 }, () => postDelivery(suite.app.url, delivery)));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    // At least once: deliveries that race past the completion check each run the idempotent effect.
    expect(suite.app.calls.transactionFailed.length).toBeGreaterThanOrEqual(1);
    expect(suite.app.calls.transactionFailed.length).toBeLessThanOrEqual(5);
    expect(await eventRows(id)).toHaveLength(1);
    expect(await effectRows(id)).toHaveLength(1);
  });
});
