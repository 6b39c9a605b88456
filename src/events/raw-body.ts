/**
 * Reads the request body as raw bytes, whatever the content type, up to a limit. The signature
 * covers the exact bytes sent, so no JSON parser may touch them first.
 */
import type { Request, Response } from "express";
import { AppError } from "../errors.js";
import { readRequestBody, RequestBodyError } from "../http/request-body.js";

/** Platform events are a few hundred bytes; this leaves room for fields the platform may add. */
export const DEFAULT_MAX_EVENT_BYTES = 256 * 1024;

export type RawBodyReader = (req: Request, res: Response) => Promise<Buffer>;

export function createRawBodyReader(maxBodyBytes: number): RawBodyReader {
  return async (req) => {
    try {
      return await readRequestBody(req, maxBodyBytes);
    } catch (error) {
      throw bodyReadError(error, maxBodyBytes);
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
