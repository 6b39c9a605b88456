/**
 * Shared-secret checks. The webhook token may arrive as a bearer token, as the password of HTTP
 * Basic auth (so a co-signer URL like https://cosigner:TOKEN@host/... works) or as a `token`
 * query parameter; the admin token only as a bearer token. Compared in constant time over
 * SHA-256 digests, so neither content nor length leaks through timing.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { Request, RequestHandler } from "express";
import type { Handler } from "./front.js";
import { sendError } from "./envelope.js";

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();

export function tokensEqual(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** The challenge a 401 from the webhook carries. */
export const WEBHOOK_CHALLENGE = 'Bearer realm="countersign", Basic realm="countersign"';

function bearerOf(header: string | undefined): string | undefined {
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

export function bearerToken(req: Request): string | undefined {
  return bearerOf(req.get("authorization"));
}

function basicPassword(header: string | undefined): string | undefined {
  const match = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon >= 0 ? decoded.slice(colon + 1) : undefined;
}

/**
 * Every credential a webhook request offers: a bearer token or a Basic password in its
 * Authorization header, and a `token` query parameter given once (given twice, it is no credential).
 */
export function webhookCredentials(authorization: string | undefined, query: URLSearchParams): string[] {
  const tokens = query.getAll("token");
  return [bearerOf(authorization), basicPassword(authorization), tokens.length === 1 ? tokens[0] : undefined].filter((t): t is string => t !== undefined);
}

/** Whether `offered` holds the webhook token: every credential is compared, so timing does not tell which form matched. */
export function webhookTokenOffered(offered: readonly string[], expected: string): boolean {
  return offered.map((t) => tokensEqual(t, expected)).some(Boolean);
}

/**
 * The webhook's token, in any of its forms (webhookCredentials). Without a configured token every
 * request passes (loadConfig allows that on loopback only). A refused request's body is not read.
 */
export function requireWebhookToken(expected: string | undefined): Handler {
  return (req, res, next) => {
    if (expected === undefined) return next();
    // Read from the URL as sent (the route is the application's own, so express leaves it whole),
    // not from express's query parser, so a token given twice is none.
    const url = req.url ?? "";
    const search = url.indexOf("?");
    const offered = webhookCredentials(req.headers.authorization, new URLSearchParams(search < 0 ? "" : url.slice(search + 1)));
    if (webhookTokenOffered(offered, expected)) return next();
    res.setHeader("WWW-Authenticate", WEBHOOK_CHALLENGE);
    sendError(res, "UNAUTHORIZED", offered.length === 0 ? "webhook token required" : "webhook token is not valid");
  };
}

export function requireAdminToken(expected: string | undefined): RequestHandler {
  return (req, res, next) => {
    if (expected === undefined) {
      return sendError(res, "FORBIDDEN", "this endpoint is disabled: set COUNTERSIGN_ADMIN_TOKEN to enable it");
    }
    const token = bearerToken(req);
    if (token !== undefined && tokensEqual(token, expected)) return next();
    res.setHeader("WWW-Authenticate", 'Bearer realm="countersign-admin"');
    sendError(res, "UNAUTHORIZED", token === undefined ? "admin token required" : "admin token is not valid");
  };
}
