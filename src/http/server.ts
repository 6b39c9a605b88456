/**
 * The HTTP server: the co-signer's webhook goes to its own endpoint (routes/webhook.ts), every
 * other request to the express application (app.ts).
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { Express } from "express";
import { type WebhookEndpoint } from "./routes/webhook.js";

// As express routes paths by default: any letter case, one trailing slash allowed, a query after.
const WEBHOOK_REQUEST = /^\/v1\/cosigner\/webhook\/?(?:\?|$)/i;

export function isWebhookDelivery(req: IncomingMessage): boolean {
  return req.method === "POST" && WEBHOOK_REQUEST.test(req.url ?? "");
}

/**
 * How often the server looks for connections past their header or request timeout (service.ts
 * sets those: 10 s and 30 s). Node's default is 30 s, so a connection outlived its timeout by up to
 * that much: headers trickled for 40 s, an unfinished body was held 47 s, four and 1.6 times what
 * the timeouts promise, and a sender holding memory that way needed that much less bandwidth.
 */
export const CONNECTIONS_CHECKING_INTERVAL_MS = 1_000;

export function createHttpServer(app: Express, webhook: WebhookEndpoint): Server {
  const server: Server = createServer({ connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS }, (req, res) => {
    // A request over a keep-alive connection after the drain began (server.close): answered, and
    // the connection closed behind it, so a client polling over it cannot hold the drain open.
    if (!server.listening) res.setHeader("Connection", "close");
    if (isWebhookDelivery(req)) webhook(req, res);
    else app(req, res);
  });
  return server;
}
