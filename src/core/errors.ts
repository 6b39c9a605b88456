/**
 * Errors are values with codes. Every HTTP answer that is not a decision carries one of these codes
 * in the envelope `{"error": {"code", "message", "requestId"}}`; the message is written for the
 * caller and never carries an internal exception's text.
 */

export const ERROR_STATUS = {
  BAD_JSON: 400,
  NOT_A_TRANSACTION: 400,
  INVALID_TRANSACTION: 400,
  INVALID_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_A_REVIEWER: 403,
  INITIATOR_CANNOT_APPROVE: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REVIEW_CLOSED: 409,
  /** The delivery differs from the platform's copy, or names a transaction the platform does not have. */
  DELIVERY_MISMATCH: 409,
  /** The platform's copy is no longer awaiting a signature (canceled, failed, signed, ...). */
  NOT_AWAITING_SIGNATURE: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  DEFERRED: 503,
  UNAVAILABLE: 503,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Safe to show to the caller. */
  readonly publicMessage: string;
  /** Extra structured detail safe to show (e.g. validation paths). */
  readonly details?: unknown;

  constructor(code: ErrorCode, publicMessage: string, options?: { cause?: unknown; details?: unknown }) {
    super(publicMessage, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.publicMessage = publicMessage;
    this.details = options?.details;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export type Result<T, E = AppError> = { ok: true; value: T } | { ok: false; error: E };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });
export const err = <E>(error: E): Result<never, E> => ({ ok: false, error });
