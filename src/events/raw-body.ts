/**
 * Reads the request body as raw bytes, whatever the content type, up to a limit. The signature
 * covers the exact bytes sent, so no JSON parser may touch them first.
 */
import express, { type Request, type Response } from "express";
import { AppError } from "../errors.js";

/** Platform events are a few hundred bytes; this leaves room for fields the platform may add. */
export const DEFAULT_MAX_EVENT_BYTES = 256 * 1024;

export type RawBodyReader = (req: Request, res: Response) => Promise<Buffer>;

export function createRawBodyReader(maxBodyBytes: number): RawBodyReader {
  const parser = express.raw({ type: () => true, limit: maxBodyBytes });
  return (req, res) =>
    new Promise((resolve, reject) => {
      parser(req, res, (error?: unknown) => {
        if (error !== undefined && error !== null) return reject(bodyReadError(error, maxBodyBytes));
        try {
          resolve(bodyOf(req));
        } catch (wiring) {
          reject(wiring);
        }
      });
    });
}

function bodyOf(req: Request): Buffer {
  const body: unknown = req.body;
  // No body at all: body-parser leaves req.body unset.
  if (body === undefined) return Buffer.alloc(0);
  if (Buffer.isBuffer(body)) return body;
  // Another body parser ran first and the raw bytes are gone: a wiring mistake, never a 401/200.
  throw new AppError("INTERNAL", "The request could not be processed", {
    details: { reason: "events handler mounted after a body parser" },
  });
}

function bodyReadError(error: unknown, maxBodyBytes: number): AppError {
  const type = (error as { type?: unknown }).type;
  const status = (error as { status?: unknown }).status;
  if (type === "entity.too.large") {
    return new AppError("PAYLOAD_TOO_LARGE", `The body is larger than ${maxBodyBytes} bytes`, { cause: error });
  }
  if (type === "encoding.unsupported" || type === "charset.unsupported") {
    return new AppError("UNSUPPORTED_MEDIA_TYPE", "The content encoding is not supported", { cause: error });
  }
  if (typeof status === "number" && status >= 400 && status < 500) {
    return new AppError("INVALID_REQUEST", "The body could not be read", { cause: error });
  }
  return new AppError("INTERNAL", "The request could not be processed", { cause: error });
}
