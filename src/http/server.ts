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
  return createServer((req, res) => (isWebhookDelivery(req) ? webhook(req, res) : app(req, res)));
}
