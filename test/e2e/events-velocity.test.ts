/**
 * End to end through the real service: a transaction that the platform reports CANCELED stops
 * counting against its velocity window, once, however often the event is delivered; and its state
 * history can be joined to its decisions in SQL.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { assetTransfer } from "../support/bodies.js";
import { postDelivery, signedDelivery } from "../support/event-sender.js";
import { dailyLimitPolicy, serviceWithEvents } from "../support/events-service.js";
import { stateUpdated } from "../support/events/harness.js";

const DAILY_LIMIT_REASON = "At most 100 ETH a day from one wallet";

describe("events end to end: a CANCELED transaction frees its window room", () => {
  const suite = serviceWithEvents(dailyLimitPolicy("events-velocity.1"));
  const eventsUrl = () => `${suite.service.url}/v1/events`;
  /** The allowed-then-canceled transaction of the first test; the SQL test reads its history. */
  let canceledName: string | undefined;

  const db = () => suite.tdb.handle.db;
  const countRows = async (table: "events" | "event_effects", column: "id" | "event_id", id: string) =>
    (await db().selectFrom(table).select(column).where(column, "=", id).execute()).length;

  it("denies past the limit, frees the room on CANCELED, and a redelivery frees nothing more", async () => {
    const first = assetTransfer({ amount: "60" });
    expect((await suite.cosigner.deliver(first)).verdict).toBe("signed");

    const over = assetTransfer({ amount: "60" });
    const denied = await suite.cosigner.deliver(over);
    expect(denied.verdict).toBe("canceled");
    expect(denied.body).toMatchObject({ signTransaction: false, reasons: [DAILY_LIMIT_REASON] });
    const [deniedRow] = await db().selectFrom("decisions").selectAll().where("transaction_name", "=", over.name).execute();
    expect(deniedRow!.matched_rules).toContainEqual({ rule: "daily-limit", decision: "deny", transfer: 0 });

    const cancel = stateUpdated(first.name, "CANCELED");
    const delivery = await signedDelivery(cancel);
    expect(await postDelivery(eventsUrl(), delivery)).toEqual({ status: 200, body: { received: true, duplicate: false } });
    const charges = await db().selectFrom("velocity_charges").select("voided_at").where("transaction_name", "=", first.name).execute();
    expect(charges).toHaveLength(1);
    expect(charges[0]!.voided_at).toBeInstanceOf(Date);

    expect((await suite.cosigner.deliver(assetTransfer({ amount: "60" }))).verdict).toBe("signed");

    // The platform redelivers the same bytes (our acknowledgement was lost, say).
    expect(await postDelivery(eventsUrl(), delivery)).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect(await countRows("events", "id", cancel.id)).toBe(1);
    expect(await countRows("event_effects", "event_id", cancel.id)).toBe(1);

    const fourth = await suite.cosigner.deliver(assetTransfer({ amount: "60" }));
    expect(fourth.verdict).toBe("canceled");
    expect(fourth.body).toMatchObject({ reasons: [DAILY_LIMIT_REASON] });
    canceledName = first.name;
  });

  it("a second CANCELED event (new id) for the same transaction frees nothing more either", async () => {
    expect(canceledName).toBeDefined();
    const again = stateUpdated(canceledName!, "CANCELED");
    expect(await postDelivery(eventsUrl(), await signedDelivery(again))).toEqual({ status: 200, body: { received: true, duplicate: false } });
    expect(await countRows("event_effects", "event_id", again.id)).toBe(1);
    expect((await suite.cosigner.deliver(assetTransfer({ amount: "60" }))).verdict).toBe("canceled");
  });

  it.each(["DROPPED", "REPLACED", "EXPIRED"])("a %s transaction keeps its room: its signature may still be mined", async (state) => {
    // A wallet of its own, so that the window holds this transaction's charge alone.
    const source = `vaults/5c3f1a2b9d7e/wallets/${state.toLowerCase()}01`;
    const first = assetTransfer({ amount: "60", source });
    expect((await suite.cosigner.deliver(first)).verdict).toBe("signed");
    const event = stateUpdated(first.name, state);
    expect(await postDelivery(eventsUrl(), await signedDelivery(event))).toEqual({ status: 200, body: { received: true, duplicate: false } });
    expect(await countRows("event_effects", "event_id", event.id)).toBe(0);
    const charges = await db().selectFrom("velocity_charges").select("voided_at").where("transaction_name", "=", first.name).execute();
    expect(charges.map((c) => c.voided_at)).toEqual([null]);
    const next = await suite.cosigner.deliver(assetTransfer({ amount: "60", source }));
    expect(next.body).toMatchObject({ signTransaction: false, reasons: [DAILY_LIMIT_REASON] });
  });

  it("the decision and the CANCELED state of a transaction join in SQL", async () => {
    expect(canceledName).toBeDefined();
    const { rows } = await sql<{ decision: string; replayed: boolean; state: string; event_type: string }>`
      select d.decision, d.replayed, s.state, s.event_type
      from decisions d
      join transaction_states s on s.transaction_name = d.transaction_name
      where d.transaction_name = ${canceledName}
      order by d.seq, s.seq`.execute(db());
    // One decision; two CANCELED events (the redelivery of the first stored nothing new).
    expect(rows).toEqual([
      { decision: "allow", replayed: false, state: "CANCELED", event_type: "TRANSACTION_STATE_UPDATED" },
      { decision: "allow", replayed: false, state: "CANCELED", event_type: "TRANSACTION_STATE_UPDATED" },
    ]);
  });
});
