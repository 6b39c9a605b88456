/**
 * Answers of the events endpoint: the acknowledgement, or the error envelope
 * `{"error": {"code", "message", "requestId"}}` carrying only the AppError's public message.
 */
import { randomUUID } from "node:crypto";
import type { Response } from "express";
import type { AppError } from "../errors.js";

/** The request id set by the app's request-context middleware, or a fresh one. */
export function requestIdOf(res: Response): string {
  const existing: unknown = res.locals.requestId;
  if (typeof existing === "string" && existing.length > 0) return existing;
  const generated = randomUUID();
  res.locals.requestId = generated;
  return generated;
}

export function sendError(res: Response, error: AppError, requestId: string): void {
  res.status(error.status).json({ error: { code: error.code, message: error.publicMessage, requestId } });
}

/** 2xx is the platform's acknowledgement: sent only once the event row is committed. */
export function sendReceived(res: Response, duplicate: boolean): void {
  res.status(200).json({ received: true, duplicate });
}
