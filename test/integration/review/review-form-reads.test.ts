/**
 * The review page reads its forms before it knows who sent them (the sign-in form carries the
 * credential). A sender that never finished one held it until the server's request timeout, and a
 * 40-byte gzip stream held 63 KiB of the process: 8,000 connections passed the chart's memory
 * limit for the pod that also decides. Now at most MAX_FORM_READS forms are read at once, from
 * clients of at most MAX_FORM_READS_PER_CLIENT each; past that the form is refused with 503 at once,
 * unread, and a slot comes back when its sender goes away. Signing out reads no form, and an
 * approval is read only under a valid session: without one they hold no read.
 */
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { MAX_FORM_READS, MAX_FORM_READS_PER_CLIENT } from "../../../src/http/routes/review-page.js";
import { holdRequest, within, type HeldRequest } from "../../support/held-requests.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService } from "../../support/service.js";

/** A form that decodes to 12 KiB (under the 16 KiB limit), without the gzip trailer: it never ends. */
const unfinishedForm = (): Buffer => {
  const full = gzipSync(Buffer.from(`token=${"a".repeat(12 * 1024)}`));
  return full.subarray(0, full.length - 8);
};

describe("review page: forms held by unfinished senders are bounded", () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let port: number;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    service = await startTestService({ database: tdb.handle });
    port = Number(new URL(service.url).port);
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
  });

  const holdForm = (path: string, from: string) =>
    holdRequest(port, `POST ${path} HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Encoding: gzip`, unfinishedForm(), { from });
  /** The i-th client: clients 127.0.0.1 to 127.0.0.8 fill the total with their shares. */
  const client = (i: number) => `127.0.0.${1 + i}`;
  const CLIENTS = MAX_FORM_READS / MAX_FORM_READS_PER_CLIENT;

  it("answers 503 at once past the bound, unread, and reads forms again once the holders go away", async () => {
    const held: HeldRequest[] = [];
    try {
      for (let i = 0; i < MAX_FORM_READS; i++) held.push(await holdForm("/review/login", client(i % CLIENTS)));
      expect(await within(Promise.race(held.map((h) => h.answer)), 300)).toBe("no answer");

      const past = await holdForm("/review/login", client(CLIENTS));
      held.push(past);
      const answer = await within(past.answer, 3_000);
      expect(answer).toMatch(/^HTTP\/1\.1 503 /);
      expect(answer).toMatch(/\r\nRetry-After: 5\r\n/i);
      expect(answer).toMatch(/\r\nContent-Security-Policy: default-src 'none'/i);

      // Signing out and an approval without a session need no form: answered, not refused as busy.
      for (const [path, status] of [
        ["/review/logout", 303],
        ["/review/vaults/v1/transactions/t1/approve", 403],
      ] as const) {
        const unread = await holdForm(path, client(CLIENTS));
        held.push(unread);
        expect(await within(unread.answer, 3_000)).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      }
    } finally {
      for (const h of held) h.socket.destroy();
    }

    // The slots come back as their senders go away: a sign-in form is read (and its token refused:
    // 403, as this service has no reviewer credentials configured).
    await vi.waitFor(
      async () => {
        const answer = await fetch(`${service.url}/review/login`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "token=not-a-reviewer-token",
        });
        expect(answer.status).toBe(403);
      },
      { timeout: 10_000, interval: 100 },
    );
  }, 30_000);
});
