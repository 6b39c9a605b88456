/**
 * End to end through the real service's `POST /v1/events`: an unverified delivery leaves no
 * trace, the console's TEST event is acknowledged, and an event about a transaction countersign
 * never decided is stored without touching anything else.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assetTransfer, transactionName } from "../support/bodies.js";
import { CosignerSimulator } from "../support/cosigner.js";
import { eventKeys, sendEvent, type Tamper } from "../support/event-sender.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { writeTempPem } from "../support/service-account.js";
import { startTestService } from "../support/service.js";
import { eventId, stateUpdated } from "../support/events/harness.js";

describe("events end to end: the endpoint on the real service", () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let eventsUrl: string;
  let keyFile: { path: string; remove(): void };

  beforeAll(async () => {
    tdb = await createTestDatabase();
    keyFile = writeTempPem((await eventKeys()).platform.publicKeyPem, "events-public.pem");
    service = await startTestService({ database: tdb.handle, env: { COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE: keyFile.path } });
    eventsUrl = `${service.url}/v1/events`;
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
    keyFile?.remove();
  });

  const db = () => tdb.handle.db;
  const eventCount = async () => Number((await sql<{ n: string }>`select count(*)::text as n from events`.execute(db())).rows[0]!.n);
  const liveCharges = async () =>
    (
      await sql<{ sum: string; count: string }>`
      select coalesce(sum(amount), 0)::text as sum, count(*)::text as count
      from velocity_charges where voided_at is null`.execute(db())
    ).rows[0];

  it.each<Tamper>(["other-key", "change-one-byte", "pkcs1-v1.5", "no-header"])("a delivery with %s answers 401 and stores nothing", async (tamper) => {
    const before = await eventCount();
    const event = stateUpdated(transactionName("forged"), "CANCELED");
    const answer = await sendEvent(eventsUrl, event, tamper);
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ error: { code: "UNAUTHORIZED", requestId: expect.any(String) } });
    expect(await eventCount()).toBe(before);
    expect(await db().selectFrom("event_effects").select("event_id").where("event_id", "=", event.id).execute()).toEqual([]);
  });

  it("acknowledges the console's TEST event and stores it", async () => {
    const id = eventId();
    expect(await sendEvent(eventsUrl, { id, type: "TEST" })).toEqual({ status: 200, body: { received: true, duplicate: false } });
    const rows = await db().selectFrom("events").select(["type", "vault", "resource"]).where("id", "=", id).execute();
    expect(rows).toEqual([{ type: "TEST", vault: null, resource: null }]);
  });

  it("stores a CANCELED event for a transaction it never saw, and changes no decision or charge", async () => {
    const cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
    const decided = assetTransfer({ amount: "1" });
    expect((await cosigner.deliver(decided)).verdict).toBe("signed");
    const chargesBefore = await liveCharges();

    const stranger = transactionName("never-seen");
    const event = stateUpdated(stranger, "CANCELED");
    expect(await sendEvent(eventsUrl, event)).toEqual({ status: 200, body: { received: true, duplicate: false } });

    expect(await db().selectFrom("transaction_states").select("state").where("transaction_name", "=", stranger).execute()).toEqual([{ state: "CANCELED" }]);
    // The void ran (and found nothing), so a redelivery will not run it again.
    expect(await db().selectFrom("event_effects").select("effect").where("event_id", "=", event.id).execute()).toEqual([{ effect: "void-charges" }]);
    expect(await db().selectFrom("decisions").select("id").where("transaction_name", "=", stranger).execute()).toEqual([]);
    expect(await liveCharges()).toEqual(chargesBefore);
    // The decided transaction still answers as before.
    expect((await cosigner.deliver(decided)).body).toMatchObject({ signTransaction: true });
  });
});
