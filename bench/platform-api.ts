/**
 * A simulated custody API for the platform-check figures, in its own process (as the real one is
 * elsewhere): after BENCH_API_DELAY_MS it answers GetTransaction with the transaction the load
 * client sent under that name (benchTransactionNamed), awaiting signature, and the address-book
 * lists with the bench vault's wallets (hot0…hot<BENCH_API_WALLETS − 1> and cold, no addresses).
 * The bearer token is not verified: that cost is the platform's, not the service's. Loopback only.
 */
import { createServer, type ServerResponse } from "node:http";
import { benchTransactionNamed } from "./decision-latency.js";

const port = Number(process.env.PORT);
const delayMs = Number(process.env.BENCH_API_DELAY_MS ?? 1);
const wallets = Number(process.env.BENCH_API_WALLETS ?? 100);
const WALLETS = [...Array.from({ length: wallets }, (_, i) => `hot${i}`), "cold"].map((w) => ({ name: `vaults/bench/wallets/${w}`, displayName: w }));

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

createServer((req, res) => {
  const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
  if (path === "/healthz") return send(res, 200, {});
  setTimeout(() => {
    const transaction = /^\/v2\/vaults\/bench\/transactions\/([A-Za-z0-9_-]+)$/.exec(path);
    if (transaction) return send(res, 200, { transaction: { ...benchTransactionNamed(`vaults/bench/transactions/${transaction[1]}`), state: "AWAITING_SIGNATURE" } });
    if (path === "/v2/vaults/bench/wallets") return send(res, 200, { wallets: WALLETS });
    if (path === "/v2/vaults/bench/addressBookEntries" || /^\/v2\/vaults\/bench\/wallets\/[^/]+\/addresses$/.test(path)) return send(res, 200, {});
    send(res, 404, { code: 5, message: "not found", details: [] });
  }, delayMs);
}).listen(port, "127.0.0.1");
