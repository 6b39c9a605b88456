/**
 * Reads the request body as raw bytes, whatever the content type, up to a limit. The signature
 * covers the exact bytes sent, so no JSON parser may touch them first.
 *
 * The bytes are held before anyone knows who sent them, so the number of bodies read at once is
 * bounded too: a sender that never finishes its body holds its bytes until the server's request
 * timeout (30 s, checked every 30 s: up to a minute), and a gzip stream of 278 bytes decodes to a
 * full 256 KiB. Unbounded, 1,000 such connections held 250 MB of the process (about 1,800 reach the
 * chart's 512 MiB limit, and the pod that decides is killed); bounded, at most
 * DEFAULT_MAX_EVENT_READS × the body limit (16 MiB at the defaults). A delivery past the bound is
 * answered 503 at once, unread; the platform retries it (with back-off, for 24 hours).
 *
 * One sender may hold only DEFAULT_MAX_EVENT_READS_PER_CLIENT of those reads: with the total alone,
 * 64 idle connections from one address answered every signed delivery 503, for as long as they
 * were renewed.
 */
import type { Request, Response } from "express";
import { AppError } from "../core/errors.js";
import { clientOf } from "./client-address.js";
import { ReadSlots, type ReadBounds } from "./read-slots.js";
import { readRequestBody, RequestBodyError } from "./request-body.js";

/** Platform events are a few hundred bytes; this leaves room for fields the platform may add. */
export const DEFAULT_MAX_EVENT_BYTES = 256 * 1024;

/** Bodies read at once; the platform delivers events a few at a time, each in one write. */
export const DEFAULT_MAX_EVENT_READS = 64;

/** Bodies read at once from one client address (the platform's deliveries come from a few). */
export const DEFAULT_MAX_EVENT_READS_PER_CLIENT = 8;

export const DEFAULT_EVENT_READ_BOUNDS: ReadBounds = { total: DEFAULT_MAX_EVENT_READS, perClient: DEFAULT_MAX_EVENT_READS_PER_CLIENT };

export type RawBodyReader = (req: Request, res: Response) => Promise<Buffer>;

export function createRawBodyReader(maxBodyBytes: number, bounds = DEFAULT_EVENT_READ_BOUNDS): RawBodyReader {
  const slots = new ReadSlots(bounds);
  return async (req) => {
    const slot = slots.take(clientOf(req));
    if ("refused" in slot) {
      const from = slot.refused === "client_busy" ? " from this address" : "";
      throw new AppError("UNAVAILABLE", `Too many event deliveries are being received${from}; retry later`);
    }
    try {
      return await readRequestBody(req, maxBodyBytes);
    } catch (error) {
      throw bodyReadError(error, maxBodyBytes);
    } finally {
      slot.release();
    }
  };
}

function bodyReadError(error: unknown, maxBodyBytes: number): AppError {
  const reason = error instanceof RequestBodyError ? error.reason : null;
  if (reason === "too_large") return new AppError("PAYLOAD_TOO_LARGE", `The body is larger than ${maxBodyBytes} bytes`, { cause: error });
  if (reason === "unsupported_encoding") return new AppError("UNSUPPORTED_MEDIA_TYPE", "The content encoding is not supported", { cause: error });
  if (reason === "unreadable") return new AppError("INVALID_REQUEST", "The body could not be read", { cause: error });
  return new AppError("INTERNAL", "The request could not be processed", { cause: error });
}
