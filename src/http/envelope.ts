/**
 * The one error envelope: `{"error": {"code", "message", "requestId", ...}}`. Internal errors are
 * logged with their detail and answered with a fixed message.
 */
import type { ErrorRequestHandler, Response } from "express";
import { AppError, ERROR_STATUS, type ErrorCode } from "../errors.js";
import { describeError, type Logger } from "../log.js";

export function requestIdOf(res: Response): string {
  return String(res.locals.requestId ?? "unknown");
}

export function sendError(res: Response, code: ErrorCode, message: string, extra: Record<string, unknown> = {}): void {
  res.status(ERROR_STATUS[code]).json({ error: { code, message, requestId: requestIdOf(res), ...extra } });
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
    if (status === 400) return sendError(res, "BAD_JSON", "request body could not be read");
    logger.error({ requestId: requestIdOf(res), path: req.path, ...describeError(error) }, "unhandled error");
    sendError(res, "INTERNAL", "internal error");
  };
}
