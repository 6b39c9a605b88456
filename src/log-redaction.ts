/**
 * The logger's second line of defence (src/log.ts): fields named like a credential or a body are
 * replaced by "[redacted]" whatever a caller passes, at the top level and two levels down (so
 * `headers.authorization` and `req.headers.cookie` are caught as well as `token`).
 *
 * pino's own `redact` option does this by parsing its path expressions and cloning the line on
 * every call: about 12 µs a line, a decision's log line included, while almost no line holds such
 * a field. This walk reads the few keys a line has and copies only what it changes: a line with
 * nothing to hide is passed on as it is, and the caller's objects are never modified.
 */
export const CENSOR = "[redacted]";

/** Field names that may hold a credential or a body. */
export const SECRET_FIELDS: readonly string[] = [
  "authorization",
  "cookie",
  "token",
  "password",
  "secret",
  "privateKeyPem",
  "databaseUrl",
  "webhookToken",
  "adminToken",
  "body",
  "x-service-signature",
];

const SECRET = new Set(SECRET_FIELDS);
/** Levels below the line's own object that are searched: `req.headers.cookie` is two down. */
const DEPTH = 2;

/** `fields` itself when nothing in it is secret; otherwise a copy with each secret value censored. */
export function redactSecrets<T extends object>(fields: T): T {
  return redactObject(fields, DEPTH) as T;
}

function redactObject(value: object, depth: number): object {
  let copy: Record<string, unknown> | unknown[] | undefined;
  const entries = value as Record<string, unknown>;
  for (const key in entries) {
    if (!Object.prototype.hasOwnProperty.call(entries, key)) continue;
    const field = entries[key];
    const replaced = SECRET.has(key) ? CENSOR : depth > 0 ? redactValue(field, depth - 1) : field;
    if (replaced === field) continue;
    copy ??= Array.isArray(value) ? value.slice() : { ...entries };
    // Defined, not assigned: an own "__proto__" key (JSON.parse makes those) stays a field.
    Object.defineProperty(copy, key, { value: replaced, enumerable: true, writable: true, configurable: true });
  }
  return copy ?? value;
}

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value !== "object" || value === null || ArrayBuffer.isView(value) || value instanceof Date) return value;
  return redactObject(value, depth);
}
