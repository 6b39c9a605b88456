/**
 * An anonymous client that opens idle connections, each announcing a body of 100,000 bytes and
 * sending a few, must not shut anyone else out. With one count of 64 reads taken before anything
 * about the sender was checked, 64 such connections to `/review/login` and to `/v1/events` answered
 * a reviewer's sign-in and a correctly signed event 503, for as long as they were renewed. Now a
 * client address holds at most its share of the reads, an approval is read only under a valid
 * session, and an event only under a signature header that can be one by the platform's key.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MAX_FORM_READS, MAX_FORM_READS_PER_CLIENT } from "../../../src/http/routes/review-page.js";
import { DEFAULT_MAX_EVENT_READS, DEFAULT_MAX_EVENT_READS_PER_CLIENT } from "../../../src/http/event-body.js";
import { eventKeys, signedDelivery } from "../../support/event-sender.js";
import { holdRequest, postFrom, type HeldRequest } from "../../support/held-requests.js";
import { writeTempPem } from "../../support/service-account.js";
import { eventId } from "../../support/events/harness.js";
import { ALICE, startReviewWorld, type ReviewWorld } from "../../support/review.js";

const ATTACKER = "127.0.0.1";
const OTHER_CLIENT = "127.0.0.2";
/** What each idle request announces: under the body limit of each endpoint (16 KiB for a form), so it is read. */
const ANNOUNCED = { event: 100_000, form: 16_000 };

/** A held request and its status once answered (0 while it is not). */
interface Counted extends HeldRequest {
  status: number;
}

const statusOf = (head: string) => Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1] ?? -1);

/** A request from ATTACKER announcing `announced` bytes and sending 8, its status counted once answered. */
async function holdIdle(port: number, head: string, announced: number): Promise<Counted> {
  const held = (await holdRequest(port, head, Buffer.from("token=ab"), { from: ATTACKER, announced })) as Counted;
  held.status = 0;
  void held.answer.then((answer) => (held.status = answer === "" ? -1 : statusOf(answer)));
  return held;
}

function tally(held: Counted[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const h of held) {
    const key = h.status === 0 ? "held" : String(h.status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

describe("idle connections from one address do not lock others out of the review page or the event webhook", () => {
  let w: ReviewWorld;
  let keyFile: { path: string; remove(): void };
  let port: number;

  beforeAll(async () => {
    keyFile = writeTempPem((await eventKeys()).platform.publicKeyPem, "events-public.pem");
    w = await startReviewWorld({ COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE: keyFile.path });
    port = Number(new URL(w.service.url).port);
  });
  afterAll(async () => {
    await w?.stop();
    keyFile?.remove();
  });

  it("answers a reviewer's sign-in and a signed event from another address while 64 of each are held from one", async () => {
    const signatureShaped = randomBytes(512).toString("base64"); // as long as an RSA-4096 signature, by no key
    const logins: Counted[] = [];
    const events: Counted[] = [];
    try {
      for (let i = 0; i < MAX_FORM_READS; i++) logins.push(await holdIdle(port, "POST /review/login HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded", ANNOUNCED.form));
      for (let i = 0; i < DEFAULT_MAX_EVENT_READS; i++)
        events.push(await holdIdle(port, `POST /v1/events HTTP/1.1\r\nContent-Type: application/json\r\nx-service-signature: ${signatureShaped}`, ANNOUNCED.event));
      // Once the flooding address is refused, its connections hold every read it may have.
      const probe = (path: string, headers: Record<string, string>) =>
        vi.waitFor(async () => expect((await postFrom(ATTACKER, `${w.service.url}${path}`, headers, "token=ab")).status).toBe(503), { timeout: 10_000, interval: 50 });
      await probe("/review/login", { "content-type": "application/x-www-form-urlencoded" });
      await probe("/v1/events", { "content-type": "application/json", "x-service-signature": signatureShaped });

      const signIn = await postFrom(
        OTHER_CLIENT,
        `${w.service.url}/review/login`,
        { "content-type": "application/x-www-form-urlencoded", origin: w.service.url },
        `token=${encodeURIComponent(w.reviewers.tokens[ALICE]!)}`,
      );
      const delivery = await signedDelivery({ id: eventId(), type: "TEST" });
      const event = await postFrom(OTHER_CLIENT, `${w.service.url}/v1/events`, { "content-type": "application/json", "x-service-signature": delivery.signature! }, delivery.body);

      // From the flooding address itself: what can be refused without the body is refused so, not 503.
      const oversizedSignIn = await holdIdle(port, "POST /review/login HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded", 100_000);
      const oversizedAnswer = await oversizedSignIn.answer;
      oversizedSignIn.socket.destroy();
      const approveWithoutSession = await postFrom(
        ATTACKER,
        `${w.service.url}/review/vaults/v1/transactions/t1/approve`,
        { "content-type": "application/x-www-form-urlencoded" },
        "csrf=x",
      );
      const shortSignature = await postFrom(ATTACKER, `${w.service.url}/v1/events`, { "content-type": "application/json", "x-service-signature": "AAAA" }, delivery.body);
      const signedFromAttacker = await postFrom(
        ATTACKER,
        `${w.service.url}/v1/events`,
        { "content-type": "application/json", "x-service-signature": delivery.signature! },
        delivery.body,
      );

      console.log(
        `[faults] ${logins.length} idle sign-ins and ${events.length} idle events (Content-Length ${ANNOUNCED.form} and ${ANNOUNCED.event}, 8 bytes sent) from ${ATTACKER}: ` +
          `from ${OTHER_CLIENT} a sign-in ${signIn.status}, a signed event ${event.status}; from ${ATTACKER} a sign-in announcing 100000 bytes ${statusOf(oversizedAnswer)}, an approval without a session ${approveWithoutSession.status}, ` +
          `a 3-byte signature ${shortSignature.status}, a signed event ${signedFromAttacker.status}`,
      );
      expect(signIn.status).toBe(303);
      expect(signIn.headers["set-cookie"]).toBeDefined();
      expect(event.status).toBe(200);
      expect(JSON.parse(event.body)).toEqual({ received: true, duplicate: false });
      expect(statusOf(oversizedAnswer)).toBe(413);
      expect(approveWithoutSession.status).toBe(401);
      expect(shortSignature.status).toBe(401);
      // The flooding address has used its share: its own deliveries wait, and the platform's retry them.
      expect(signedFromAttacker.status).toBe(503);
      // Past its share, each of the flooding address's requests was refused at once, unread.
      await vi.waitFor(
        () => {
          expect(logins.filter((h) => h.status !== 0)).toHaveLength(MAX_FORM_READS - MAX_FORM_READS_PER_CLIENT);
          expect(events.filter((h) => h.status !== 0)).toHaveLength(DEFAULT_MAX_EVENT_READS - DEFAULT_MAX_EVENT_READS_PER_CLIENT);
        },
        { timeout: 10_000, interval: 50 },
      );
      console.log(`[faults] the idle connections from ${ATTACKER}: sign-ins ${JSON.stringify(tally(logins))}, events ${JSON.stringify(tally(events))}`);
      expect([...new Set([...logins, ...events].filter((h) => h.status !== 0).map((h) => h.status))]).toEqual([503]);
    } finally {
      for (const h of [...logins, ...events]) h.socket.destroy();
    }
  }, 60_000);
});

describe("behind a proxy named in COUNTERSIGN_TRUST_PROXY, the client it forwards for is counted, not the proxy", () => {
  let w: ReviewWorld;
  let port: number;

  beforeAll(async () => {
    w = await startReviewWorld({ COUNTERSIGN_TRUST_PROXY: "loopback" });
    port = Number(new URL(w.service.url).port);
  });
  afterAll(async () => {
    await w?.stop();
  });

  it("signs a reviewer in through the proxy while 64 idle sign-ins come through it for another client", async () => {
    // The proxy (127.0.0.1) forwards for 203.0.113.7, which appended a claim of its own: the proxy's
    // entry, the last, is the client, so a client cannot choose its count by the header it sends.
    const forwarded = "X-Forwarded-For: 198.51.100.2, 203.0.113.7";
    const logins: Counted[] = [];
    try {
      for (let i = 0; i < MAX_FORM_READS; i++)
        logins.push(await holdIdle(port, `POST /review/login HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\n${forwarded}`, ANNOUNCED.form));
      const form = { "content-type": "application/x-www-form-urlencoded", origin: w.service.url };
      await vi.waitFor(
        async () => expect((await postFrom(ATTACKER, `${w.service.url}/review/login`, { ...form, "x-forwarded-for": "198.51.100.2, 203.0.113.7" }, "token=ab")).status).toBe(503),
        {
          timeout: 10_000,
          interval: 50,
        },
      );

      const signIn = await postFrom(
        ATTACKER,
        `${w.service.url}/review/login`,
        { ...form, "x-forwarded-for": "198.51.100.2" },
        `token=${encodeURIComponent(w.reviewers.tokens[ALICE]!)}`,
      );
      console.log(`[faults] ${logins.length} idle sign-ins through a trusted proxy for 203.0.113.7: a sign-in through it for 198.51.100.2 ${signIn.status}`);
      expect(signIn.status).toBe(303);
      await vi.waitFor(() => expect(logins.filter((h) => h.status !== 0)).toHaveLength(MAX_FORM_READS - MAX_FORM_READS_PER_CLIENT), { timeout: 10_000, interval: 50 });
      console.log(`[faults] the idle sign-ins for 203.0.113.7: ${JSON.stringify(tally(logins))}`);
    } finally {
      for (const h of logins) h.socket.destroy();
    }
  }, 60_000);
});
