/**
 * readRequestBody against real HTTP requests on loopback: what each encoding, an oversized or
 * hostile body, and a client that goes away get.
 */
import { randomBytes } from "node:crypto";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readRequestBody, RequestBodyError } from "./request-body.js";

const LIMIT = 64 * 1024;

type Outcome = { ok: true; bytes: string } | { ok: false; reason: string };

describe("readRequestBody", () => {
  let server: Server;
  let port: number;
  const outcomes: Outcome[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const readTwice = req.headers["x-read-twice"] === "yes";
      const first = readRequestBody(req, LIMIT);
      const read = readTwice ? first.then(() => readRequestBody(req, LIMIT)) : first;
      read.then(
        (body) => {
          outcomes.push({ ok: true, bytes: body.toString("utf8") });
          res.end(`read ${body.length}`);
        },
        (error: unknown) => {
          outcomes.push({ ok: false, reason: error instanceof RequestBodyError ? error.reason : String(error) });
          res.statusCode = 400;
          res.end("refused");
        },
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  /** POSTs `chunks` (chunked unless a content-length is given) and returns what the reader made of them. */
  async function post(chunks: Buffer[], headers: Record<string, string> = {}): Promise<{ status: number; outcome: Outcome }> {
    const before = outcomes.length;
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, method: "POST", path: "/", headers }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.on("error", reject);
      for (const c of chunks) req.write(c);
      req.end();
    });
    expect(outcomes.length).toBe(before + 1);
    return { status, outcome: outcomes[before]! };
  }

  const json = Buffer.from(JSON.stringify({ name: "vaults/v/transactions/t", note: "payout 💸" }));

  it("reads a plain body, sent whole or in chunks", async () => {
    expect((await post([json], { "content-length": String(json.length) })).outcome).toEqual({ ok: true, bytes: json.toString() });
    expect((await post([json.subarray(0, 5), json.subarray(5, 20), json.subarray(20)])).outcome).toEqual({ ok: true, bytes: json.toString() });
  });

  it("reads an empty body as no bytes", async () => {
    expect((await post([], { "content-length": "0" })).outcome).toEqual({ ok: true, bytes: "" });
  });

  it.each([
    ["gzip", gzipSync],
    ["x-gzip", gzipSync],
    ["deflate", deflateSync],
    ["br", brotliCompressSync],
    [" GZIP ", gzipSync],
  ])("decodes content-encoding %s", async (encoding, encode) => {
    expect((await post([encode(json)], { "content-encoding": encoding })).outcome).toEqual({ ok: true, bytes: json.toString() });
  });

  it("refuses a declared length over the limit before reading it, and the connection still answers", async () => {
    const big = Buffer.alloc(LIMIT + 1, 0x61);
    const { status, outcome } = await post([big], { "content-length": String(big.length) });
    expect(outcome).toEqual({ ok: false, reason: "too_large" });
    expect(status).toBe(400);
  });

  it("refuses a chunked body once it passes the limit", async () => {
    const chunk = Buffer.alloc(16 * 1024, 0x61);
    expect((await post([chunk, chunk, chunk, chunk, chunk])).outcome).toEqual({ ok: false, reason: "too_large" });
  });

  it("limits the decoded size: a small gzip bomb is refused", async () => {
    const bomb = gzipSync(Buffer.alloc(LIMIT * 50, 0));
    expect(bomb.length).toBeLessThan(LIMIT);
    expect((await post([bomb], { "content-encoding": "gzip" })).outcome).toEqual({ ok: false, reason: "too_large" });
  });

  it("limits the bytes received too: a gzip header whose comment never ends decodes to nothing", async () => {
    // FLG = FCOMMENT: the comment runs until a zero byte, and the decoder emits nothing meanwhile.
    const header = Buffer.from([0x1f, 0x8b, 0x08, 0x10, 0, 0, 0, 0, 0, 0x03]);
    const comment = Buffer.alloc(16 * 1024, 0x61);
    const chunks = [header, ...Array.from({ length: Math.ceil((2 * LIMIT) / comment.length) }, () => comment)];
    expect((await post(chunks, { "content-encoding": "gzip" })).outcome).toEqual({ ok: false, reason: "too_large" });
  });

  it.each([
    ["gzip", gzipSync],
    ["deflate", deflateSync],
    ["br", brotliCompressSync],
  ])("reads a %s body of incompressible bytes just under the limit, whose encoding is larger than the limit", async (encoding, encode) => {
    const encoded = encode(randomBytes(LIMIT - 1));
    expect(encoded.length).toBeGreaterThan(LIMIT);
    expect((await post([encoded], { "content-encoding": encoding })).outcome).toMatchObject({ ok: true });
  });

  it.each(["compress", "zstd", "__proto__", "constructor", "gzip, br"])("refuses content-encoding %j", async (encoding) => {
    expect((await post([json], { "content-encoding": encoding })).outcome).toEqual({ ok: false, reason: "unsupported_encoding" });
  });

  it("calls a corrupt gzip body unreadable", async () => {
    const corrupt = gzipSync(json);
    corrupt.fill(0x41, 12, 30);
    expect((await post([corrupt], { "content-encoding": "gzip" })).outcome).toEqual({ ok: false, reason: "unreadable" });
  });

  it("refuses to read a body twice rather than answer it as empty", async () => {
    expect((await post([json], { "x-read-twice": "yes" })).outcome).toEqual({ ok: false, reason: "already_read" });
  });

  it("calls a body whose client went away unreadable", async () => {
    const before = outcomes.length;
    await new Promise<void>((resolve) => {
      const req = request({ host: "127.0.0.1", port, method: "POST", path: "/", headers: { "content-length": "1000" } });
      req.on("error", () => resolve());
      req.write(Buffer.alloc(100, 0x61));
      // The client goes away mid-body, a moment after its first bytes: the scenario, not a wait.
      setTimeout(() => req.destroy(), 50);
    });
    await expect.poll(() => outcomes.length).toBe(before + 1);
    expect(outcomes[before]).toEqual({ ok: false, reason: "unreadable" });
  });
});
