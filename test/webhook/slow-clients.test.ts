/**
 * The server's header timeout (10 s, service.ts) holds to within a second: node looked for expired
 * connections every 30 s by default, so headers trickled for up to 40 s (and an unfinished body
 * was held 47 s against a 30 s request timeout), and holding the process's memory that way took
 * that much less of a sender's bandwidth.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { startTestService } from "../support/service.js";

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

  it("closes a connection whose headers never end within a second or two of the 10 s header timeout", async () => {
    const port = Number(new URL(service.url).port);
    const socket = connect(port, "127.0.0.1");
    const opened = Date.now();
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += chunk.toString("latin1")));
    const closedAfter = new Promise<number>((resolve) => socket.on("close", () => resolve(Date.now() - opened)));
    socket.on("error", () => undefined);
    socket.write("POST /v1/cosigner/webhook HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Trickle: a");
    // A byte every second, as a slow client sends them: the header timeout counts from the first.
    const trickle = setInterval(() => socket.write("a"), 1_000);
    const elapsed = await Promise.race([closedAfter, new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), 14_000))]);
    clearInterval(trickle);
    socket.destroy();
    expect(elapsed).toBeGreaterThanOrEqual(9_500);
    expect(elapsed).toBeLessThan(12_500);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  }, 20_000);
});
