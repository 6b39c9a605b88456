import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../../src/database.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { postDelivery, sendEvent, signedDelivery, type Tamper } from "../../support/event-sender.js";
import { eventId, startEventsApp, stateUpdated, type EventsApp } from "../../support/events/harness.js";

const MAX_BODY = 2048;

describe("POST /v1/events refuses what the platform did not sign", () => {
  let tdb: TestDatabase;
  let db: Db;
  let app: EventsApp;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    db = tdb.handle.db;
    app = await startEventsApp(db, { maxBodyBytes: MAX_BODY });
  });
  afterAll(async () => {
    await app?.close();
    await tdb?.drop();
  });

  const countEvents = async () =>
    (
      await db
        .selectFrom("events")
        .select((e) => e.fn.countAll<string>().as("n"))
        .executeTakeFirstOrThrow()
    ).n;

  it.each<Tamper>(["change-one-byte", "other-key", "pkcs1-v1.5", "no-header", "empty-header", "not-base64", "empty-body"])(
    "%s: 401 UNAUTHORIZED, nothing stored, no effect, metric counted, body not logged",
    async (tamper) => {
      const before = app.calls.signatureRejected;
      app.calls.logs.length = 0;
      const event = stateUpdated("vaults/v1/transactions/t-secret", "CANCELED");
      const response = await sendEvent(app.url, event, tamper);

      expect(response.status).toBe(401);
      expect(response.body).toEqual({
        error: { code: "UNAUTHORIZED", message: "The event signature is missing or invalid", requestId: expect.any(String) },
      });
      expect(await countEvents()).toBe("0");
      expect(app.calls.transactionFailed).toEqual([]);
      expect(app.calls.signatureRejected).toBe(before + 1);
      const logged = JSON.stringify(app.calls.logs);
      expect(logged).toContain("event signature rejected");
      expect(logged).not.toContain("t-secret");
    },
  );

  it("answers 413 in the envelope for a body over the limit, before looking at it", async () => {
    const event = { ...stateUpdated("vaults/v1/transactions/t-big", "CANCELED"), padding: "x".repeat(MAX_BODY) };
    const response = await sendEvent(app.url, event);
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ error: { code: "PAYLOAD_TOO_LARGE", requestId: expect.any(String) } });
    expect(await countEvents()).toBe("0");
    expect(app.calls.transactionFailed).toEqual([]);
  });

  it("answers 400 BAD_JSON for a validly signed body that is not JSON", async () => {
    const response = await sendEvent(app.url, '{"id": "evt-x", "type": ');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: { code: "BAD_JSON", message: "The body is not valid JSON" } });
    expect(await countEvents()).toBe("0");
  });

  it.each([
    ["no id", { type: "TEST" }],
    ["a numeric id", { id: 42, type: "TEST" }],
    ["no type", { id: "evt-no-type" }],
    ["an array", [{ id: "evt-in-array", type: "TEST" }]],
    ["a state update without newState", { ...stateUpdated("vaults/v1/transactions/t1", "CANCELED"), details: {} }],
    ["a state update whose resource is not a transaction", { ...stateUpdated("vaults/v1/transactions/t1", "CANCELED"), resource: "vaults/v1" }],
    ["a wallet event without a vault", { id: eventId(), type: "WALLET_CREATED", resource: "vaults/v1/wallets/w1" }],
    ["a state update whose vault is not its transaction's", { ...stateUpdated("vaults/v1/transactions/t1", "CANCELED"), vault: "vaults/someoneelse" }],
    ["a state update whose vault is a prefix of its transaction's", { ...stateUpdated("vaults/v10/transactions/t1", "CANCELED"), vault: "vaults/v1" }],
  ])("answers 400 INVALID_REQUEST for a verified event with %s, and stores nothing", async (_, event) => {
    const response = await sendEvent(app.url, event);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: { code: "INVALID_REQUEST", requestId: expect.any(String) } });
    expect(await countEvents()).toBe("0");
    expect(app.calls.transactionFailed).toEqual([]);
    expect(app.calls.walletChanged).toEqual([]);
  });

  it("answers 400, not a retry loop, for a verified event Postgres cannot hold in jsonb", async () => {
    const response = await sendEvent(app.url, '{"id":"evt-nul","type":"TEST","note":"a\\u0000b"}');
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: { code: "INVALID_REQUEST", message: "The event cannot be stored" } });
  });

  it("does not echo internal messages or the body in an error answer", async () => {
    const delivery = await signedDelivery('{"id": "evt-y", "type": "TEST", "secret": "0xdeadbeef" ');
    const response = await postDelivery(app.url, delivery);
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).not.toMatch(/deadbeef|Unexpected|JSON at position/);
  });

  it("uses the request id set by the app's middleware, else generates one", async () => {
    const delivery = await signedDelivery({ id: eventId(), type: "TEST" }, "no-header");
    const given = await postDelivery(app.url, delivery, { "x-test-request-id": "req-from-app" });
    expect((given.body as { error: { requestId: string } }).error.requestId).toBe("req-from-app");
    const generated = await postDelivery(app.url, delivery);
    expect((generated.body as { error: { requestId: string } }).error.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });
});
