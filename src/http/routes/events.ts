/**
 * POST /v1/events — the custody platform's event webhook (docs/interface.md section 6).
 *
 * Order matters: check that the signature header can be a signature by the key, read the raw bytes
 * (bounded per client and in total), verify the signature over them, and only then parse, store
 * and act. An unverified request gets 401 and leaves no trace but a log line and a
 * metric. A 2xx is the platform's acknowledgement, so it is sent only after the event row is
 * committed and its effect (if any) completed; anything else is 4xx/5xx and the platform retries.
 *
 * Mount as `app.post("/v1/events", createEventsHandler(deps))`, before any app-wide body parser
 * (the handler reads the body itself and needs the untouched bytes).
 */
import type { KeyObject } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import type { Db } from "../../database.js";
import { AppError } from "../../core/errors.js";
import type { EventEffectHandlers } from "../../events/effects.js";
import { processVerifiedEvent, type ProcessedEvent } from "../../events/process.js";
import { assertEventsPublicKey } from "../../events/public-key.js";
import type { ReadBounds } from "../read-slots.js";
import { createRawBodyReader, DEFAULT_EVENT_READ_BOUNDS, DEFAULT_MAX_EVENT_BYTES } from "../event-body.js";
import { requestIdOf, sendAppError } from "../envelope.js";
import { SIGNATURE_HEADER, signatureFromHeader, verifyEventSignature, type SignatureRejection } from "../../events/signature.js";

export interface EventsLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface EventsMetrics {
  signatureRejected(): void;
}

export interface EventsHandlerDeps extends EventEffectHandlers {
  db: Db;
  /** The platform's webhook public key; see loadEventsPublicKeyFile. Checked again here. */
  publicKey: KeyObject;
  /** Default DEFAULT_MAX_EVENT_BYTES (256 KiB). */
  maxBodyBytes?: number;
  /** Bodies read at once, in total and per client, past which a delivery is answered 503 unread; default DEFAULT_EVENT_READ_BOUNDS (64, 8). */
  readBounds?: ReadBounds;
  metrics?: EventsMetrics;
  logger?: EventsLogger;
  /** Clock for received_at / completed_at; default the system clock. */
  now?: () => Date;
}

const silent: EventsLogger = { warn: () => undefined, info: () => undefined };

export function createEventsHandler(deps: EventsHandlerDeps): RequestHandler {
  assertEventsPublicKey(deps.publicKey);
  const readBody = createRawBodyReader(deps.maxBodyBytes ?? DEFAULT_MAX_EVENT_BYTES, deps.readBounds ?? DEFAULT_EVENT_READ_BOUNDS);
  const logger = deps.logger ?? silent;
  const processDeps = {
    db: deps.db,
    now: deps.now ?? (() => new Date()),
    onTransactionFailed: (name: string, state: string) => deps.onTransactionFailed(name, state),
    onTransactionConfirmed: (name: string) => deps.onTransactionConfirmed(name),
    onWalletChanged: (vault: string) => deps.onWalletChanged(vault),
  };

  return async (req: Request, res: Response) => {
    const requestId = requestIdOf(res);
    const refuse = (reason: SignatureRejection, bodyBytes?: number) => {
      deps.metrics?.signatureRejected();
      logger.warn({ requestId, reason, bodyBytes }, "event signature rejected");
      sendAppError(res, new AppError("UNAUTHORIZED", "The event signature is missing or invalid"));
    };
    try {
      const signature = req.get(SIGNATURE_HEADER);
      // Refused unread: a header that cannot be a signature by this key takes no read slot.
      const shape = signatureFromHeader(deps.publicKey, signature);
      if ("rejected" in shape) return refuse(shape.rejected);
      const body = await readBody(req, res);
      const check = verifyEventSignature(deps.publicKey, body, signature);
      if (!check.verified) return refuse(check.reason, body.length);
      // verifyEventSignature refused a missing header, so `signature` is a string here.
      const result = await processVerifiedEvent(processDeps, body, signature ?? "");
      if (!result.ok) {
        logFailure(logger, requestId, result.error);
        return sendAppError(res, result.error);
      }
      logger.info(summary(requestId, result.value), "event received");
      // 2xx is the platform's acknowledgement: sent only once the event row is committed.
      return res.status(200).json({ received: true, duplicate: result.value.duplicate });
    } catch (error) {
      const failure = error instanceof AppError ? error : new AppError("INTERNAL", "The request could not be processed", { cause: error });
      logFailure(logger, requestId, failure);
      return sendAppError(res, failure);
    }
  };
}

function summary(requestId: string, processed: ProcessedEvent): object {
  const { event, duplicate, effect } = processed;
  return { requestId, eventId: event.id, type: event.type, resource: event.resource, duplicate, effect };
}

/** Code, public message and the cause's name/code/message: never the body. */
function logFailure(logger: EventsLogger, requestId: string, error: AppError): void {
  const cause = error.cause as { name?: unknown; code?: unknown; message?: unknown } | undefined;
  logger.warn(
    {
      requestId,
      code: error.code,
      message: error.publicMessage,
      details: error.details,
      cause: cause === undefined ? undefined : { name: cause.name, code: cause.code, message: cause.message },
    },
    "event not acknowledged",
  );
}
