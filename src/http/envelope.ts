/**
 * The one error envelope: `{"error": {"code", "message", "requestId", ...}}`. Internal errors are
 * logged with their detail and answered with a fixed message.
 */
import { randomUUID } from "node:crypto";
import type { ErrorRequestHandler, Response } from "express";
import { AppError, ERROR_STATUS, type ErrorCode } from "../core/errors.js";
import { describeError, type Logger } from "../log.js";

/** The request id set by the request-context middleware, or a fresh one for a handler mounted without it. */
export function requestIdOf(res: Response): string {
  const existing: unknown = res.locals.requestId;
  if (typeof existing === "string" && existing.length > 0) return existing;
  const generated = randomUUID();
  res.locals.requestId = generated;
  return generated;
}

/** The envelope's body. */
export function errorBody(code: ErrorCode, message: string, requestId: string, extra: Record<string, unknown> = {}) {
  return { error: { code, message, requestId, ...extra } };
}

/** Seconds a client answered 503 (a deferral, or something unavailable) is told to wait before asking again. */
export const RETRY_AFTER_SECONDS = 30;

export function sendError(res: Response, code: ErrorCode, message: string, extra: Record<string, unknown> = {}): void {
  // Every 503 says when to ask again: the co-signer and the platform's event sender retry on it.
  if (ERROR_STATUS[code] === 503 && !res.hasHeader("Retry-After")) res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
  res.status(ERROR_STATUS[code]).json(errorBody(code, message, requestIdOf(res), extra));
}

export function sendAppError(res: Response, error: AppError): void {
  sendError(res, error.code, error.publicMessage, error.details === undefined ? {} : { details: error.details });
}

/** express's final error handler: body-parser errors, thrown AppErrors, and everything else. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) return;
    if (error instanceof AppError) return sendAppError(res, error);
    const status = (error as { status?: unknown }).status;
    if (status === 413) return sendError(res, "PAYLOAD_TOO_LARGE", "request body is over the size limit");
    // express's router answers a path parameter that is not valid percent-encoding with a URIError.
    if (status === 400 && error instanceof URIError) return sendError(res, "INVALID_REQUEST", "request path has malformed percent-encoding");
    if (status === 400) return sendError(res, "BAD_JSON", "request body could not be read");
    if (status === 415) return sendError(res, "UNSUPPORTED_MEDIA_TYPE", "request body encoding is not supported");
    logger.error({ requestId: requestIdOf(res), path: req.path, ...describeError(error) }, "unhandled error");
    sendError(res, "INTERNAL", "internal error");
  };
}
