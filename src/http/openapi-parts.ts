/**
 * The pieces the OpenAPI document (./openapi.ts) is built from: zod schemas written as OpenAPI 3.0
 * schemas, the headers every answer carries, and the answers several operations share.
 */
import { z } from "zod";

/**
 * A zod schema as an OpenAPI 3.0 schema. OpenAPI 3.0 reads `nullable` only beside a `type`, and
 * zod writes a nullable union as `{nullable: true, anyOf: [...]}`: validators (ajv) refuse that,
 * and the rest ignore the null. Such a union gets null as a branch of its own instead.
 */
export function schema(s: z.ZodType): unknown {
  return withTypedNulls(z.toJSONSchema(s, { io: "input", unrepresentable: "any", target: "openapi-3.0" }));
}

/** The 3.0 spelling of "null": a nullable type whose only value is null. */
const NULL_BRANCH = { type: "object", nullable: true, enum: [null] };

function withTypedNulls(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withTypedNulls);
  if (node === null || typeof node !== "object") return node;
  const entries = Object.entries(node).map(([key, value]) => [key, withTypedNulls(value)] as const);
  const out: Record<string, unknown> = Object.fromEntries(entries);
  if (out.nullable !== true || "type" in out) return out;
  delete out.nullable;
  // Without a type and without branches the schema admits any value, null among them.
  if (Array.isArray(out.anyOf)) out.anyOf = [...(out.anyOf as unknown[]), NULL_BRANCH];
  else if (Array.isArray(out.oneOf)) out.oneOf = [...(out.oneOf as unknown[]), NULL_BRANCH];
  return out;
}

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const json = (name: string) => ({ "application/json": { schema: ref(name) } });
const html = { "text/html": { schema: { type: "string" } } };

/** Headers declared once in components.headers; every answer carries X-Request-Id. */
export const HEADERS = {
  RequestId: {
    description: "the caller's X-Request-Id when it is 1 to 128 of A-Z a-z 0-9 . _ : -, else a fresh UUID; the same id is in the answer's error envelope and the log lines",
    schema: { type: "string" },
  },
  RetryAfter: { description: "seconds to wait before asking again", schema: { type: "integer", minimum: 0 } },
  WwwAuthenticate: { description: "the credential this endpoint takes", schema: { type: "string" } },
};

type HeaderName = keyof typeof HEADERS;
const HEADER_FIELD: Record<HeaderName, string> = { RequestId: "X-Request-Id", RetryAfter: "Retry-After", WwwAuthenticate: "WWW-Authenticate" };

/** An answer carrying X-Request-Id, plus the headers named. */
export function answer(description: string, content?: object, ...headers: HeaderName[]): object {
  const declared = (["RequestId", ...headers] as HeaderName[]).map((h): [string, object] => [HEADER_FIELD[h], { $ref: `#/components/headers/${h}` }]);
  return { description, headers: Object.fromEntries(declared), ...(content ? { content } : {}) };
}

export const errorAnswer = (description: string) => answer(description, json("Error"));
/** A 503: the envelope and when to ask again (src/http/envelope.ts sets Retry-After on every one). */
export const unavailableAnswer = (description: string) => answer(description, json("Error"), "RetryAfter");
export const unauthorizedAnswer = (description: string) => answer(description, json("Error"), "WwwAuthenticate");
export const htmlAnswer = (description: string) => answer(description, html);

/** What reading a request body can answer besides the route's own errors (src/http/json-body.ts). */
export const bodyErrors = {
  "413": errorAnswer("body over the size limit"),
  "415": errorAnswer("UNSUPPORTED_MEDIA_TYPE: a Content-Encoding other than gzip, deflate, br or identity"),
};

export const adminErrors = {
  "401": unauthorizedAnswer("missing or wrong admin token"),
  "403": errorAnswer("FORBIDDEN: COUNTERSIGN_ADMIN_TOKEN is not set, so the endpoint is off"),
};

/** Operations open to anyone who can reach the port. */
export const OPEN: object[] = [];
