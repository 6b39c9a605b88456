/**
 * Reads a request body as raw bytes, up to a limit on its decoded size, through the content
 * encodings HTTP clients use (gzip, deflate, br). The bytes received are limited too: a gzip
 * header's comment field can run on forever while decoding to nothing, and a limit on the decoded
 * size alone would read it until the socket's timeout.
 *
 * Our own, not body-parser's raw reader, which wraps each read in raw-body, on-finished and charset
 * handling the co-signer's bytes never need: a measurable share of the instructions per decision
 * (docs/performance.md).
 */
import type { IncomingMessage } from "node:http";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import type { Readable, Transform } from "node:stream";

/** `already_read`: another reader took the bytes first (a wiring mistake, never an empty body). */
export type BodyFailure = "too_large" | "unsupported_encoding" | "unreadable" | "already_read";

/** Why a body could not be read; each caller answers it in its own words. */
export class RequestBodyError extends Error {
  constructor(
    readonly reason: BodyFailure,
    options?: { cause?: unknown },
  ) {
    super(`request body: ${reason}`, options);
    this.name = "RequestBodyError";
  }
}

const DECODERS = new Map<string, () => Transform>([
  ["gzip", createGunzip],
  ["x-gzip", createGunzip],
  ["deflate", createInflate],
  ["br", createBrotliDecompress],
]);

/** The body's bytes (empty when it has none); rejects with RequestBodyError. */
export function readRequestBody(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  if (req.readableEnded) return Promise.reject(new RequestBodyError("already_read"));
  const encoding = (req.headers["content-encoding"] ?? "identity").trim().toLowerCase();
  if (encoding === "identity") {
    const declared = Number(req.headers["content-length"]);
    // Refused before a byte is read; the rest is discarded so the connection can carry the answer.
    if (declared > limitBytes) return refuse(req, "too_large");
    return collect(req, null, limitBytes);
  }
  const decoder = DECODERS.get(encoding);
  if (!decoder) return refuse(req, "unsupported_encoding");
  const decoding = decoder();
  req.pipe(decoding);
  return collect(req, decoding, limitBytes);
}

/**
 * How many encoded bytes may carry a body of `limitBytes` decoded ones: what deflate or brotli
 * add to bytes they cannot compress (a few bytes per block and a header) stays far below this.
 */
export const encodedLimit = (limitBytes: number): number => limitBytes + Math.ceil(limitBytes / 256) + 1024;

function refuse(req: IncomingMessage, reason: BodyFailure): Promise<never> {
  req.resume();
  return Promise.reject(new RequestBodyError(reason));
}

/** Chunks of the request, or of its decoder, until it ends, the limit is passed, or it fails. */
function collect(req: IncomingMessage, decoding: Transform | null, limitBytes: number): Promise<Buffer> {
  const source: Readable = decoding ?? req;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let encodedReceived = 0;
    const settle = (failure: RequestBodyError | null) => {
      source.off("data", onData);
      req.off("data", onEncodedData);
      source.off("end", onEnd);
      source.off("error", onError);
      req.off("aborted", onAborted);
      if (failure === null) return resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
      if (decoding) {
        req.unpipe(decoding);
        decoding.destroy();
      }
      req.resume();
      reject(failure);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limitBytes) return settle(new RequestBodyError("too_large"));
      chunks.push(chunk);
    };
    const onEncodedData = (chunk: Buffer) => {
      encodedReceived += chunk.length;
      if (encodedReceived > encodedLimit(limitBytes)) settle(new RequestBodyError("too_large"));
    };
    const onEnd = () => settle(null);
    const onError = (error: unknown) => settle(new RequestBodyError("unreadable", { cause: error }));
    const onAborted = () => settle(new RequestBodyError("unreadable"));
    source.on("data", onData);
    if (decoding) req.on("data", onEncodedData);
    source.once("end", onEnd);
    source.once("error", onError);
    req.once("aborted", onAborted);
  });
}
