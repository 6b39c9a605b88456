/**
 * Stopping the service (SIGTERM's path) with keep-alive connections open: a request that arrives
 * over one after the drain began is answered with `Connection: close`, and a connection whose
 * request was in flight is closed once answered, so no client can hold the drain open until the
 * decision deadline's cut. Raw sockets, so the test decides when each byte is sent.
 */
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createLogger } from "../../../src/log.js";
import { assetTransfer } from "../../support/bodies.js";
import { startTestService } from "../../support/service.js";

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Complete HTTP/1.1 responses off `socket`, in order (Content-Length framed, as the service answers). */
function responsesOf(socket: Socket): () => Promise<RawResponse> {
  let buffered = "";
  let waiting: (() => void) | undefined;
  socket.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("latin1");
    waiting?.();
  });
  const parse = (): RawResponse | undefined => {
    const end = buffered.indexOf("\r\n\r\n");
    if (end < 0) return undefined;
    const [statusLine, ...lines] = buffered.slice(0, end).split("\r\n");
    const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
    const length = Number(headers["content-length"] ?? 0);
    if (buffered.length < end + 4 + length) return undefined;
    const body = buffered.slice(end + 4, end + 4 + length);
    buffered = buffered.slice(end + 4 + length);
    return { status: Number(statusLine!.split(" ")[1]), headers, body };
  };
  return () =>
    new Promise((resolve, reject) => {
      const attempt = () => {
        const response = parse();
        if (response) {
          waiting = undefined;
          resolve(response);
        } else if (socket.destroyed) reject(new Error("connection closed before a complete response"));
      };
      waiting = attempt;
      socket.once("close", attempt);
      attempt();
    });
}

const closedByServer = (socket: Socket) => new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once("close", () => resolve())));

describe("stopping with keep-alive connections open", () => {
  const logged: string[] = [];
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.().catch(() => undefined);
    stop = undefined;
    logged.length = 0;
  });

  async function serve() {
    // A short deadline: without the drain's own closing, the test would end at the cut (deadline
    // + 1 s) with its warning logged instead of hanging for long.
    const service = await startTestService({
      env: { COUNTERSIGN_DATA_DIR: ":memory:", COUNTERSIGN_DECISION_TIMEOUT: "2s" },
      logger: createLogger({ level: "info", write: (line) => logged.push(line) }),
    });
    stop = service.stop;
    const { port } = new URL(service.url);
    const socket = connect(Number(port), "127.0.0.1");
    await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
    const nextResponse = responsesOf(socket);
    // The connection is kept alive after a first answer.
    socket.write("GET /healthz HTTP/1.1\r\nHost: countersign\r\n\r\n");
    const first = await nextResponse();
    expect(first.status).toBe(200);
    expect(first.headers.connection).toBe("keep-alive");
    return { service, socket, nextResponse };
  }

  const cutWarnings = () => logged.filter((l) => l.includes("connections still open after the decision deadline"));

  /**
   * Sends a delivery's headers and half its body, and resolves once the service has begun handling
   * it: the connection is busy, not idle, when the drain begins.
   */
  async function deliveryInFlight(service: Awaited<ReturnType<typeof serve>>["service"], socket: Socket): Promise<string> {
    const body = JSON.stringify(assetTransfer({ amount: "1" }));
    const half = Math.floor(body.length / 2);
    const handling = new Promise((resolve) => service.server.once("request", resolve));
    socket.write(
      `POST /v1/cosigner/webhook HTTP/1.1\r\nHost: countersign\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
    );
    await handling;
    return body.slice(half);
  }

  it("closes a keep-alive connection whose delivery was in flight when the drain began, once it is answered", async () => {
    const { service, socket, nextResponse } = await serve();
    const rest = await deliveryInFlight(service, socket);
    const stopping = service.stop();
    socket.write(rest);
    const answer = await nextResponse();
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toHaveProperty("signTransaction");
    // Keep-alive was promised when the delivery began; the drain closes the connection as soon as
    // it is idle rather than at the cut.
    expect(answer.headers.connection).toBe("keep-alive");
    await closedByServer(socket);
    await stopping;
    stop = undefined;
    expect(cutWarnings()).toEqual([]);
    expect(logged.some((l) => l.includes("stopped: requests drained, database closed"))).toBe(true);
  });

  it("answers a request sent over such a connection during the drain with Connection: close, then closes it", async () => {
    const { service, socket, nextResponse } = await serve();
    const rest = await deliveryInFlight(service, socket);
    const stopping = service.stop();
    // The delivery's rest and, pipelined behind it, another request: it arrives after the drain began.
    socket.write(`${rest}GET /healthz HTTP/1.1\r\nHost: countersign\r\n\r\n`);
    const delivery = await nextResponse();
    expect(delivery.status).toBe(200);
    const late = await nextResponse();
    expect(late.status).toBe(200);
    expect(late.headers.connection).toBe("close");
    await closedByServer(socket);
    await stopping;
    stop = undefined;
    expect(cutWarnings()).toEqual([]);
  });
});
