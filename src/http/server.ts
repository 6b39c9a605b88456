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

export function createHttpServer(app: Express, webhook: WebhookEndpoint): Server {
  const server: Server = createServer((req, res) => {
    // A request over a keep-alive connection after the drain began (server.close): answered, and
    // the connection closed behind it, so a client polling over it cannot hold the drain open.
    if (!server.listening) res.setHeader("Connection", "close");
    return isWebhookDelivery(req) ? webhook(req, res) : app(req, res);
  });
  return server;
}
