/** The HTTP server: every request, the co-signer's webhook included, goes to the express application (app.ts). */
import { createServer, type Server } from "node:http";
import type { Express } from "express";

/**
 * How often the server looks for connections past their header or request timeout (service.ts
 * sets those: 10 s and 30 s). Node's default is 30 s, so a connection outlived its timeout by up to
 * that much: headers trickled for 40 s, an unfinished body was held 47 s, four and 1.6 times what
 * the timeouts promise, and a sender holding memory that way needed that much less bandwidth.
 */
export const CONNECTIONS_CHECKING_INTERVAL_MS = 1_000;

export function createHttpServer(app: Express): Server {
  const server: Server = createServer({ connectionsCheckingInterval: CONNECTIONS_CHECKING_INTERVAL_MS }, (req, res) => {
    // A request over a keep-alive connection after the drain began (server.close): answered, and
    // the connection closed behind it, so a client polling over it cannot hold the drain open.
    if (!server.listening) res.setHeader("Connection", "close");
    app(req, res);
  });
  return server;
}
