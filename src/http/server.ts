/**
 * The HTTP server: a co-signer delivery goes to the webhook's handlers without express's dispatch
 * (front.ts), every other request to the express application (app.ts).
 */
import { createServer, type Server } from "node:http";
import type { HttpApp } from "./app.js";
import { telemetryStarted } from "../telemetry/lifecycle.js";
import { isWebhookDelivery } from "./routes/webhook.js";

/**
 * How often the server looks for connections past their header or request timeout (service.ts
 * sets those: 10 s and 30 s). Node's default is 30 s, so a connection outlived its timeout by up to
 * that much: headers trickled for 40 s, an unfinished body was held 47 s, four and 1.6 times what
 * the timeouts promise, and a sender holding memory that way needed that much less bandwidth.
 */
export const CONNECTIONS_CHECKING_INTERVAL_MS = 1_000;

export function createHttpServer({ app, webhook }: HttpApp): Server {
  // With OpenTelemetry on, express's instrumentation names the server span after the route and
  // traces the route's handler: a traced delivery goes through express, as every other request.
  const front = telemetryStarted() ? null : webhook;
  const server: Server = createServer({ connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS }, (req, res) => {
    // A request over a keep-alive connection after the drain began (server.close): answered, and
    // the connection closed behind it, so a client polling over it cannot hold the drain open.
    if (!server.listening) res.setHeader("Connection", "close");
    if (front && isWebhookDelivery(req)) front(req, res);
    else app(req, res);
  });
  return server;
}
