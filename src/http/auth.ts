/**
 * Shared-secret checks. The webhook token may arrive as a bearer token, as the password of HTTP
 * Basic auth (so a co-signer URL like https://cosigner:TOKEN@host/... works) or as a `token`
 * query parameter; the admin token only as a bearer token. Compared in constant time over
 * SHA-256 digests, so neither content nor length leaks through timing.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { Request, RequestHandler } from "express";
import { sendError } from "./envelope.js";

const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();

export function tokensEqual(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

export function bearerToken(req: Request): string | undefined {
  const header = req.get("authorization");
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

function basicPassword(req: Request): string | undefined {
  const header = req.get("authorization");
  const match = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon >= 0 ? decoded.slice(colon + 1) : undefined;
}

function queryToken(req: Request): string | undefined {
  const value = req.query.token;
  return typeof value === "string" ? value : undefined;
}

/** Every credential the request offers for the webhook. */
export function webhookCredentials(req: Request): string[] {
  return [bearerToken(req), basicPassword(req), queryToken(req)].filter((t): t is string => t !== undefined);
}

export function requireWebhookToken(expected: string | undefined): RequestHandler {
  return (req, res, next) => {
    if (expected === undefined) return next();
    const offered = webhookCredentials(req);
    // Check every offered credential so timing does not reveal which form matched.
    const matched = offered.map((t) => tokensEqual(t, expected)).some(Boolean);
    if (matched) return next();
    res.setHeader("WWW-Authenticate", 'Bearer realm="countersign", Basic realm="countersign"');
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
