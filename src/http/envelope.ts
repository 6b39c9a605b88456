/**
 * The one error envelope: `{"error": {"code", "message", "requestId", ...}}`. Internal errors are
 * logged with their detail and answered with a fixed message.
 */
import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { AppError, ERROR_STATUS, type ErrorCode } from "../core/errors.js";
import { describeError, type Logger } from "../log.js";
import type { ErrorHandler, Handler, HttpRequest, HttpResponse } from "./front.js";

/** The request id set by the request-context middleware, or a fresh one for a handler mounted without it. */
export function requestIdOf(res: HttpResponse): string {
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

/**
 * A JSON answer written in one call. express's `res.json` gets there through `res.send`, which
 * re-derives the content type (a MIME lookup, a parse and a format of the header), looks up the
 * ETag and JSON settings and checks freshness on every answer; none of it changes what these
 * answers say, and on the co-signer's webhook it was a measurable share of each decision.
 */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text) }).end(text);
}

export function sendError(res: HttpResponse, code: ErrorCode, message: string, extra: Record<string, unknown> = {}): void {
  // Every 503 says when to ask again: the co-signer and the platform's event sender retry on it.
  if (ERROR_STATUS[code] === 503 && !res.hasHeader("Retry-After")) res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
  sendJson(res, ERROR_STATUS[code], errorBody(code, message, requestIdOf(res), extra));
}

export function sendAppError(res: HttpResponse, error: AppError): void {
  sendError(res, error.code, error.publicMessage, error.details === undefined ? {} : { details: error.details });
}

/**
 * The request's path: express's `req.path` where express dispatched it, else (the webhook's front,
 * front.ts, whose requests all have a plain path) the URL before its query.
 */
const pathOf = (req: HttpRequest): string => (req as { path?: string }).path ?? (req.url ?? "").split("?", 1)[0]!;

/** What no route answers. */
export const notFound: Handler = (req, res) => {
  sendError(res, "NOT_FOUND", `no route for ${req.method} ${pathOf(req)}`);
};

/** The final error handler: body-parser errors, thrown AppErrors, and everything else. */
export function errorHandler(logger: Logger): ErrorHandler {
  return (error, req, res, _next) => {
    if (res.headersSent) return;
    if (error instanceof AppError) return sendAppError(res, error);
    const status = (error as { status?: unknown }).status;
    if (status === 413) return sendError(res, "PAYLOAD_TOO_LARGE", "request body is over the size limit");
    // express's router answers a path parameter that is not valid percent-encoding with a URIError.
    if (status === 400 && error instanceof URIError) return sendError(res, "INVALID_REQUEST", "request path has malformed percent-encoding");
    if (status === 400) return sendError(res, "BAD_JSON", "request body could not be read");
    if (status === 415) return sendError(res, "UNSUPPORTED_MEDIA_TYPE", "request body encoding is not supported");
    logger.error({ requestId: requestIdOf(res), path: pathOf(req), ...describeError(error) }, "unhandled error");
    sendError(res, "INTERNAL", "internal error");
  };
}
