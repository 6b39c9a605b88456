/**
 * One event id, two different signed bodies. The platform's id is
 * the event's identity: countersign stores the first body and answers every later delivery of the
 * id as a duplicate. But the effect was chosen from the body of the delivery at hand, not from the
 * stored event, so a second body under a stored id (a platform that re-serialises or reuses an id,
 * or a replayed capture of one) voided a transaction's charges while `events` records a state that
 * voids nothing — the velocity room freed with no stored failure to show for it; and the reverse
 * order left a stored CANCELED whose effect never ran. Severity low: both bodies carry the
 * platform's signature.
 */
import { describe, expect, it } from "vitest";
import { sendEvent } from "../../support/event-sender.js";
import { eventId, stateUpdated, eventsSuite } from "../../support/events/harness.js";

describe("POST /v1/events: a stored id's effect comes from the stored event", () => {
  const suite = eventsSuite();
  const effectRows = (id: string) => suite.db.selectFrom("event_effects").selectAll().where("event_id", "=", id).execute();

  it("a later body under a stored SIGNED id that says CANCELED voids nothing", async () => {
    const id = eventId();
    const name = "vaults/v1/transactions/t-same-id";
    expect((await sendEvent(suite.app.url, stateUpdated(name, "SIGNED", id))).body).toEqual({ received: true, duplicate: false });
    const second = await sendEvent(suite.app.url, stateUpdated(name, "CANCELED", id));
    expect(second).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect(suite.app.calls.transactionFailed).toEqual([]);
    expect(await effectRows(id)).toEqual([]);
    const stored = await suite.db.selectFrom("events").select("new_state").where("id", "=", id).execute();
    expect(stored).toEqual([{ new_state: "SIGNED" }]);
  });

  it("a stored CANCELED whose effect failed runs it on a redelivery, whatever that body says", async () => {
    const id = eventId();
    const name = "vaults/v1/transactions/t-same-id-2";
    suite.app.calls.failNext = 1;
    expect((await sendEvent(suite.app.url, stateUpdated(name, "CANCELED", id))).status).toBe(503);
    expect(await effectRows(id)).toEqual([]);
    expect((await sendEvent(suite.app.url, { ...stateUpdated(name, "SIGNED", id), extra: 1 })).status).toBe(200);
    expect(suite.app.calls.transactionFailed).toEqual([
      { transactionName: name, state: "CANCELED" },
      { transactionName: name, state: "CANCELED" },
    ]);
    expect(await effectRows(id)).toHaveLength(1);
  });
});
