/**
 * `POST /v1/events` reads a body before it can know who sent it (the signature covers the bytes).
 * A sender that never finishes its body held those bytes until the server's request timeout, and a
 * gzip stream of a few hundred bytes decodes to the full 256 KiB: enough such connections ran the
 * process out of memory. Now at most DEFAULT_MAX_EVENT_READS bodies are read at once, from clients
 * of at most DEFAULT_MAX_EVENT_READS_PER_CLIENT each; past that a delivery is answered 503 at once,
 * unread, and a slot comes back when its sender goes away. A body is read only under a signature
 * header that can be one by the platform's key (this one is as long, by no key).
 */
import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_MAX_EVENT_BYTES, DEFAULT_MAX_EVENT_READS, DEFAULT_MAX_EVENT_READS_PER_CLIENT } from "../../src/http/event-body.js";
import { eventKeys, sendEvent } from "../support/event-sender.js";
import { holdRequest, within, type HeldRequest } from "../support/held-requests.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { writeTempPem } from "../support/service-account.js";
import { startTestService } from "../support/service.js";
import { eventId } from "../support/events/harness.js";

/** A gzip stream decoding to just under the body limit, without its last bytes: it never ends. */
const unfinishedBomb = (): Buffer => {
  const full = gzipSync(Buffer.alloc(DEFAULT_MAX_EVENT_BYTES - 1024, 0x20));
  return full.subarray(0, full.length - 8);
};

const SIGNATURE_SHAPED = randomBytes(512).toString("base64");

/** A delivery from `from` whose gzip body never ends. */
const holdDelivery = (port: number, body: Buffer, from: string) =>
  holdRequest(port, `POST /v1/events HTTP/1.1\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nx-service-signature: ${SIGNATURE_SHAPED}`, body, { from });

/** The i-th client: clients 127.0.0.1 to 127.0.0.8 fill the total with their shares. */
const client = (i: number) => `127.0.0.${1 + i}`;
const CLIENTS = DEFAULT_MAX_EVENT_READS / DEFAULT_MAX_EVENT_READS_PER_CLIENT;

describe("events: bodies held by unfinished deliveries are bounded", () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let keyFile: { path: string; remove(): void };
  let port: number;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    keyFile = writeTempPem((await eventKeys()).platform.publicKeyPem, "events-public.pem");
    service = await startTestService({ database: tdb.handle, env: { COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE: keyFile.path } });
    port = Number(new URL(service.url).port);
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
    keyFile?.remove();
  });

  it("answers 503 at once past the bound, unread, and takes events again once the holders go away", async () => {
    const body = unfinishedBomb();
    const held: HeldRequest[] = [];
    try {
      for (let i = 0; i < DEFAULT_MAX_EVENT_READS; i++) held.push(await holdDelivery(port, body, client(i % CLIENTS)));
      // Every held delivery is being read: none is answered.
      expect(await within(Promise.race(held.map((h) => h.answer)), 300)).toBe("no answer");

      const past = await holdDelivery(port, body, client(CLIENTS));
      held.push(past);
      const answer = await within(past.answer, 3_000);
      expect(answer).toMatch(/^HTTP\/1\.1 503 /);
      expect(answer).toContain('"code":"UNAVAILABLE"');
    } finally {
      for (const h of held) h.socket.destroy();
    }

    // The slots come back as their senders go away: a signed event is taken again.
    await vi.waitFor(async () => expect((await sendEvent(`${service.url}/v1/events`, { id: eventId(), type: "TEST" })).status).toBe(200), { timeout: 10_000, interval: 100 });
  }, 30_000);
});
