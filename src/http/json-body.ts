/**
 * Reads a JSON body ourselves instead of trusting a parser's defaults: any content type (the
 * co-signer's is not guaranteed), a byte limit, strict UTF-8, and a structural check before any
 * recursive code touches the value — a nesting bomb or a `__proto__` key is refused here, and so is
 * JSON that two readers could read differently: a key twice in one object (`JSON.parse` keeps the
 * last, another parser the first), or a number a double cannot hold (`1e400` reads as Infinity and
 * is written back as null; `123456789012345678901` as another number), which would let two
 * different bodies share one content digest and one recorded snapshot.
 */
import { AppError } from "../core/errors.js";
import type { Handler } from "./front.js";
import { readRequestBody, RequestBodyError, type BodyFailure } from "./request-body.js";

export const MAX_JSON_DEPTH = 64;
const MAX_JSON_NODES = 200_000;

const BODY_ERRORS: Record<BodyFailure, () => AppError> = {
  too_large: () => new AppError("PAYLOAD_TOO_LARGE", "request body is over the size limit"),
  unsupported_encoding: () => new AppError("UNSUPPORTED_MEDIA_TYPE", "request body encoding is not supported"),
  unreadable: () => new AppError("BAD_JSON", "request body could not be read"),
  already_read: () => new AppError("INTERNAL", "internal error"),
};

/** What a failed body read is answered with: an AppError for a RequestBodyError, else the error itself. */
export function bodyReadError(error: unknown): unknown {
  return error instanceof RequestBodyError ? BODY_ERRORS[error.reason]() : error;
}

/** Sets `req.body` to the body's bytes (any content type, decoded, at most `limitBytes`). */
export function rawBody(limitBytes: number): Handler {
  return (req, _res, next) => {
    readRequestBody(req, limitBytes).then(
      (body) => {
        req.body = body;
        next();
      },
      (error: unknown) => next(bodyReadError(error)),
    );
  };
}

/** Parses the raw body read by `rawBody`; throws AppError BAD_JSON. */
export function parseJsonBody(body: unknown): unknown {
  if (!Buffer.isBuffer(body) || body.length === 0) throw new AppError("BAD_JSON", "request body is empty");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    throw new AppError("BAD_JSON", "request body is not valid UTF-8");
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError("BAD_JSON", "request body is not valid JSON");
  }
  const keys = checkStructure(value);
  if (keys !== keysInText(text)) throw new AppError("BAD_JSON", "request body has a key twice in one object");
  return value;
}

// NUL and unpaired surrogates are valid JSON escapes but cannot be stored in Postgres text or
// jsonb: such a body could never be recorded, so it could never be decided. Refuse it up front.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function checkText(text: string): void {
  if (UNSTORABLE.test(text)) throw new AppError("BAD_JSON", "request body contains a NUL character or an unpaired surrogate");
}

function checkNumber(value: number): void {
  if (!Number.isFinite(value)) throw new AppError("BAD_JSON", "request body has a number too large to read (send it as a string)");
  if (Math.abs(value) > Number.MAX_SAFE_INTEGER) {
    throw new AppError("BAD_JSON", "request body has a number beyond 2^53, which cannot be read exactly (send it as a string)");
  }
}

/** Iterative, so a deep document cannot overflow the stack while being checked; returns the number of object keys. */
function checkStructure(root: unknown): number {
  const stack: { value: unknown; depth: number }[] = [{ value: root, depth: 0 }];
  let nodes = 0;
  let keys = 0;
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (++nodes > MAX_JSON_NODES) throw new AppError("BAD_JSON", "request body has too many JSON values");
    if (typeof value === "string") {
      checkText(value);
      continue;
    }
    if (typeof value === "number") checkNumber(value);
    if (value === null || typeof value !== "object") continue;
    if (depth >= MAX_JSON_DEPTH) throw new AppError("BAD_JSON", `request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
    if (Array.isArray(value)) {
      for (const item of value) stack.push({ value: item, depth: depth + 1 });
      continue;
    }
    for (const key of Object.keys(value)) {
      checkText(key);
      if (key === "__proto__") throw new AppError("BAD_JSON", "request body contains a forbidden key: __proto__");
      stack.push({ value: (value as Record<string, unknown>)[key], depth: depth + 1 });
      keys++;
    }
  }
  return keys;
}

const BACKSLASH = 0x5c;
const COLON = 0x3a;
const isJsonSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * The object keys written in a text `JSON.parse` accepted: its string tokens followed by a colon.
 * Fewer keys in the parsed value than here means an object repeated one. In valid JSON a quote
 * outside a string always opens one, and the first unescaped quote after it closes it.
 */
function keysInText(text: string): number {
  let keys = 0;
  let open = text.indexOf('"');
  while (open !== -1) {
    let close = text.indexOf('"', open + 1);
    while (close !== -1 && escaped(text, close)) close = text.indexOf('"', close + 1);
    if (close === -1) break; // unreachable for text JSON.parse accepted
    let next = close + 1;
    while (next < text.length && isJsonSpace(text.charCodeAt(next))) next++;
    if (text.charCodeAt(next) === COLON) keys++;
    open = text.indexOf('"', next);
  }
  return keys;
}

/** Whether the quote at `at` is escaped: an odd run of backslashes before it. */
function escaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(at - 1 - backslashes) === BACKSLASH) backslashes++;
  return backslashes % 2 === 1;
}
