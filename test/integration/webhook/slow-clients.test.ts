/**
 * The server's header timeout (10 s, service.ts) holds to within a second: node looked for expired
 * connections every 30 s by default, so headers trickled for up to 40 s (and an unfinished body
 * was held 47 s against a 30 s request timeout), and holding the process's memory that way took
 * that much less of a sender's bandwidth. A slow client here sends its headers a byte a second
 * (the scenario's pace, not a wait): headers that would end 12 s after the first byte are cut with
 * a 408 before they end, and headers that end after 5 s are read and answered.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService } from "../../support/service.js";

/** The slow client's pace: one byte of its headers a second. */
const A_BYTE_A_SECOND = 1_000;

/**
 * Sends a webhook request whose last header trickles `bytes` bytes, a byte a second, then ends the
 * headers and a body; resolves, once the server closes the connection, with what it answered and
 * whether the headers had ended.
 */
function trickleHeaders(port: number, bytes: number): Promise<{ answer: string; headersEnded: boolean }> {
  const socket = connect(port, "127.0.0.1");
  let answer = "";
  let sent = 0;
  socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
  socket.on("error", () => undefined);
  socket.write("POST /v1/cosigner/webhook HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\nX-Trickle: a");
  const trickle = setInterval(() => {
    if (socket.destroyed) return;
    socket.write(++sent < bytes ? "a" : "\r\n\r\n{}");
    if (sent >= bytes) clearInterval(trickle);
  }, A_BYTE_A_SECOND);
  return new Promise((resolve) =>
    socket.on("close", () => {
      clearInterval(trickle);
      resolve({ answer, headersEnded: sent >= bytes });
    }),
  );
}

describe("slow clients are cut at the server's timeouts", () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    service = await startTestService({ database: tdb.handle });
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
  });

  it("answers 408 and closes a connection whose headers would end 12 s after their first byte, before they end", async () => {
    const { answer, headersEnded } = await trickleHeaders(Number(new URL(service.url).port), 12);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(headersEnded).toBe(false);
  });

  it("reads and answers a request whose headers end 5 s after their first byte, within the header timeout", async () => {
    const { answer, headersEnded } = await trickleHeaders(Number(new URL(service.url).port), 5);
    expect(headersEnded).toBe(true);
    expect(answer).toMatch(/^HTTP\/1\.1 [0-9]{3} /);
    expect(answer).not.toMatch(/^HTTP\/1\.1 408 /);
  });
});
