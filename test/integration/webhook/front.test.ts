/**
 * The server hands a co-signer delivery to the webhook's handlers without express's dispatch
 * (src/http/front.ts), and only a request express itself routes to the webhook: any other request,
 * and every request of a process traced by OpenTelemetry, goes to the express application. Real
 * sockets; raw request targets, so the test chooses each byte of the path.
 */
import { once } from "node:events";
import { request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express, { Router } from "express";
import { afterEach, describe, expect, it } from "vitest";
import { createHttpServer } from "../../../src/http/server.js";
import { WEBHOOK_PATH } from "../../../src/http/routes/webhook.js";
import { onTelemetryShutdown, shutdownTelemetry } from "../../../src/telemetry/lifecycle.js";

/** Which part answered: the front, express's webhook route, or another of express's routes. */
type Answerer = "front" | "express webhook" | "express other";

function serve(): Server {
  const app = express();
  app.use(Router().post(WEBHOOK_PATH, (_req, res) => void res.end("express webhook")));
  app.use((_req, res) => void res.end("express other"));
  return createHttpServer({ app, webhook: (_req, res) => void res.end("front") });
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  await shutdownTelemetry();
});

async function answererOf(server: Server, method: string, target: string): Promise<Answerer> {
  if (!server.listening) {
    servers.push(server);
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
  }
  const { port } = server.address() as AddressInfo;
  const req = request({ host: "127.0.0.1", port, method, path: target, agent: false });
  req.end();
  const [res] = (await once(req, "response")) as [NodeJS.ReadableStream];
  let body = "";
  for await (const chunk of res) body += String(chunk);
  return body as Answerer;
}

const DELIVERIES = ["/v1/cosigner/webhook", "/v1/cosigner/webhook/", "/V1/Cosigner/WEBHOOK", "/v1/cosigner/webhook?token=abc", "/v1/cosigner/webhook/?token=a&token=b"];
const OTHERS: [string, string][] = [
  ["GET", "/v1/cosigner/webhook"],
  ["PUT", "/v1/cosigner/webhook"],
  ["POST", "/v1/cosigner/webhooks"],
  ["POST", "/v1/cosigner/webhook/more"],
  ["POST", "/v1/cosigner//webhook"],
  ["POST", "/x/v1/cosigner/webhook"],
  ["POST", "/v1/evaluate"],
];

describe("the webhook's front", () => {
  it.each(DELIVERIES)("takes POST %s, a path express routes to the webhook", async (target) => {
    expect(await answererOf(serve(), "POST", target)).toBe("front");
    // The same request in a traced process shows where express itself routes it.
    onTelemetryShutdown(async () => undefined);
    expect(await answererOf(serve(), "POST", target)).toBe("express webhook");
  });

  it.each(OTHERS)("leaves %s %s to express", async (method, target) => {
    expect(await answererOf(serve(), method, target)).not.toBe("front");
  });

  it("leaves a request whose target is an absolute URL to express, whose webhook route still answers it", async () => {
    expect(await answererOf(serve(), "POST", "http://127.0.0.1/v1/cosigner/webhook")).toBe("express webhook");
  });

  it("leaves every delivery to express in a process traced by OpenTelemetry, so its spans name the route", async () => {
    onTelemetryShutdown(async () => undefined);
    expect(await answererOf(serve(), "POST", WEBHOOK_PATH)).toBe("express webhook");
  });
});
