import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../../src/database.js";
import { backends } from "../../support/backends.js";
import { decisionRow } from "../../support/decision-rows.js";
import { parseEvent } from "../../../src/events/event.js";
import { storeEvent } from "../../../src/events/store.js";
import { eventId, stateUpdated, transactionCreated } from "../../support/events/harness.js";

/** Stores an event the way the handler does after verification (signature not checked here). */
async function store(db: Db, event: object, receivedAt = new Date()): Promise<boolean> {
  const body = Buffer.from(JSON.stringify(event));
  const parsed = parseEvent(body);
  if (!parsed.ok) throw parsed.error;
  const { stored } = await storeEvent(db, parsed.value.event, { body, signature: "c2ln", payload: parsed.value.payload }, receivedAt);
  return stored;
}

describe.each(backends)("events table on $name", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  const tx = "vaults/v1/transactions/t-history";

  beforeAll(async () => {
    ({ db, close } = await backend.open());
  });
  afterAll(async () => close?.());

  it("stores an event once per id, however many concurrent inserts", async () => {
    const event = stateUpdated("vaults/v1/transactions/t-dup", "SIGNED");
    const results = await Promise.all(Array.from({ length: 5 }, () => store(db, event)));
    expect(results.filter(Boolean)).toHaveLength(1);
    const rows = await db.selectFrom("events").select("id").where("resource", "=", "vaults/v1/transactions/t-dup").execute();
    expect(rows).toHaveLength(1);
  });

  it("keeps the exact body bytes, the signature and the payload with unknown fields", async () => {
    const event = { ...stateUpdated("vaults/v1/transactions/t-raw", "SIGNED"), futureField: { a: 1 } };
    await store(db, event);
    const row = await db
      .selectFrom("events")
      .select(["body", "signature", "payload", "new_state", "details", "resource_type"])
      .where("id", "=", event.id)
      .executeTakeFirstOrThrow();
    expect(Buffer.from(row.body).toString()).toBe(JSON.stringify(event));
    expect(row.signature).toBe("c2ln");
    expect(row.payload).toMatchObject({ futureField: { a: 1 } });
    expect(row).toMatchObject({ new_state: "SIGNED", resource_type: "TRANSACTION", details: { transactionStateUpdated: { newState: "SIGNED" } } });
  });

  it("refuses UPDATE, DELETE and TRUNCATE of events and event_effects", async () => {
    await expect(db.updateTable("events").set({ type: "X" }).execute()).rejects.toThrow(/append-only/);
    await expect(db.deleteFrom("events").execute()).rejects.toThrow(/append-only/);
    await expect(sql`truncate events cascade`.execute(db)).rejects.toThrow(/append-only/);
    const id = eventId();
    await store(db, transactionCreated("vaults/v1/transactions/t-eff", id));
    await db.insertInto("event_effects").values({ event_id: id, effect: "void-charges", completed_at: new Date() }).execute();
    await expect(db.deleteFrom("event_effects").execute()).rejects.toThrow(/append-only/);
    await expect(sql`truncate event_effects`.execute(db)).rejects.toThrow(/append-only/);
  });

  it("refuses an effect record for an event that was never stored", async () => {
    await expect(db.insertInto("event_effects").values({ event_id: "no-such-event", effect: "void-charges", completed_at: new Date() }).execute()).rejects.toThrow(/foreign key/);
  });

  it("gives each transaction's state history in arrival order", async () => {
    const t0 = Date.parse("2026-11-21T12:00:00Z");
    const states = ["AWAITING_POLICY_CHECK", "AWAITING_SIGNATURE", "CANCELED"];
    await store(db, transactionCreated(tx), new Date(t0));
    for (const [i, state] of states.entries()) await store(db, stateUpdated(tx, state), new Date(t0 + (i + 1) * 1000));
    await store(db, stateUpdated("vaults/v1/transactions/other", "CONFIRMED"));

    const history = await db.selectFrom("transaction_states").select(["state", "event_type"]).where("transaction_name", "=", tx).orderBy("seq").execute();
    expect(history.map((h) => h.state)).toEqual(["CREATED", ...states]);
    expect(history[0]?.event_type).toBe("TRANSACTION_CREATED");
  });

  it("joins the state history to decisions by transaction name", async () => {
    await db
      .insertInto("decisions")
      .values(
        decisionRow({
          id: "00000000-0000-4000-8000-000000000001",
          decided_at: new Date("2026-11-21T12:00:01.500Z"),
          transaction_name: tx,
          decision: "deny",
          sign_transaction: false,
        }),
      )
      .execute();
    const { rows } = await sql<{ at: string; what: string }>`
      select at, what from (
        select d.decided_at as at, 'decision: ' || d.decision as what from decisions d where d.transaction_name = ${tx}
        union all
        select s.received_at, 'state: ' || s.state from transaction_states s where s.transaction_name = ${tx}
      ) timeline order by at`.execute(db);
    expect(rows.map((r) => r.what)).toEqual(["state: CREATED", "state: AWAITING_POLICY_CHECK", "decision: deny", "state: AWAITING_SIGNATURE", "state: CANCELED"]);
  });
});
