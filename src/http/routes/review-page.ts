/**
 * `GET /review`, the review page for people (docs/interface.md section 9). Server-rendered, no scripts:
 * a strict Content-Security-Policy forbids them outright. Signing in posts a reviewer token or an
 * OIDC ID token, verified like an API bearer token and then kept in an HttpOnly, SameSite=Strict
 * cookie scoped to /review, for at most SESSION_SECONDS (an ID token's: until it expires). Every action form carries a CSRF token bound to that credential
 * (HMAC keyed by it), and a cross-origin Origin header is refused. Only a member of a reviewer
 * group signs in or sees anything, and only the reviews their groups are asked for (src/review/desk.ts).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import express, { Router, type Request, type RequestHandler, type Response } from "express";
import type { Reviewer, ReviewerAuth } from "../../review/auth.js";
import type { ReviewDesk } from "../../review/desk.js";
import { loginPage, messagePage, pagePath, queuePage, REVIEW_CSS, reviewPage } from "../../review/page-html.js";
import { actionComment, transactionNameOf } from "./review.js";
import { AppError } from "../../core/errors.js";
import { clientOf } from "../client-address.js";
import { ReadSlots } from "../read-slots.js";

const COOKIE = "countersign_review";
const CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

const csrfFor = (token: string) => createHmac("sha256", token).update("countersign review form").digest("hex");

function secure(res: Response, next: () => void): void {
  res.setHeader("Content-Security-Policy", CSP);
  res.setHeader("X-Frame-Options", "DENY");
  res.setHeader("X-Content-Type-Options", "nosniff");
  // same-origin, not no-referrer: under no-referrer the browser sends `Origin: null` on our own forms.
  res.setHeader("Referrer-Policy", "same-origin");
  res.setHeader("Cache-Control", "no-store");
  next();
}

/** The token the cookie carries; a cookie that is not valid percent-encoding carries an empty one (refused as any wrong token). */
function cookieToken(req: Request): string | undefined {
  for (const part of (req.get("cookie") ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name !== COOKIE) continue;
    try {
      return decodeURIComponent(value.join("="));
    } catch {
      return "";
    }
  }
  return undefined;
}

/**
 * The longest a sign-in lasts, in seconds: a working day. The cookie holds the credential itself,
 * and without Max-Age a browser that restores its session kept it (a reviewer token) for good.
 */
export const SESSION_SECONDS = 8 * 3600;

/** Sets the cookie for `seconds` (at most SESSION_SECONDS), or clears it when `token` is null. */
function setCookie(req: Request, res: Response, token: string | null, seconds = 0): void {
  const value = token === null ? "" : encodeURIComponent(token);
  const maxAge = token === null ? 0 : Math.max(0, Math.min(SESSION_SECONDS, Math.floor(seconds)));
  res.setHeader("Set-Cookie", `${COOKIE}=${value}; Path=/review; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${req.secure ? "; Secure" : ""}`);
}

/** How long a sign-in of `reviewer` may last: a working day, or until the ID token expires. */
function sessionSeconds(reviewer: Reviewer): number {
  if (reviewer.expiresAt === undefined) return SESSION_SECONDS;
  return (reviewer.expiresAt.getTime() - Date.now()) / 1000;
}

/** A form posted from another origin is refused even before the CSRF token is looked at. */
function sameOrigin(req: Request): boolean {
  const origin = req.get("origin");
  if (origin === undefined) return true; // older clients send none; SameSite=Strict and the CSRF token still hold
  // req.protocol and req.host follow X-Forwarded-Proto/-Host only from proxies COUNTERSIGN_TRUST_PROXY names.
  return origin === `${req.protocol}://${req.host}`;
}

function html(res: Response, status: number, body: string): void {
  res.status(status).type("html").send(body);
}

/**
 * Forms read at once. The sign-in form is read before anyone knows who sent it (it carries the
 * credential), and a sender that never finishes one holds it until the server's request timeout:
 * a 40-byte gzip stream held 63 KiB (the decoded bytes and the inflater's window), and 8,000 such
 * connections 505 MB, past the chart's 512 MiB limit for a pod that also decides. Bounded, they hold
 * about 4 MiB. One client address may hold MAX_FORM_READS_PER_CLIENT of them: with the total
 * alone, 64 idle connections from one address refused every reviewer's sign-in. An approval or
 * rejection is read only once its session cookie is valid, so an anonymous sender holds none.
 */
export const MAX_FORM_READS = 64;
export const MAX_FORM_READS_PER_CLIENT = 8;

/** A text field of the parsed form; absent, or sent as anything but text, it is undefined. */
function formField(req: Request, name: string): string | undefined {
  const value: unknown = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === "string" ? value : undefined;
}

/** The largest form read, decoded: a comment of 2,000 characters, percent-encoded, fits. */
const FORM_LIMIT_BYTES = 16 * 1024;

/**
 * `parse`, within a slot of `slots`; with none free the form is refused with 503, unread. A form
 * that announces more than FORM_LIMIT_BYTES unencoded is refused first: body-parser answers it 413
 * only once the sender has finished sending it, and the slot was held until then.
 */
function boundedReads(parse: RequestHandler, slots: ReadSlots): RequestHandler {
  return (req, res, next) => {
    const unencoded = (req.get("content-encoding") ?? "identity").trim().toLowerCase() === "identity";
    if (unencoded && Number(req.get("content-length")) > FORM_LIMIT_BYTES) {
      return html(res, 413, messagePage(null, undefined, "Too large", "This form is larger than a review form can be."));
    }
    const slot = slots.take(clientOf(req));
    if ("refused" in slot) {
      res.setHeader("Retry-After", "5");
      const from = slot.refused === "client_busy" ? " from your address" : "";
      return html(res, 503, messagePage(null, undefined, "Busy", `Too many forms are being received${from}; try again in a moment.`));
    }
    // body-parser calls next once the read ends, fails or is aborted; a response closed first releases too.
    res.once("close", slot.release);
    parse(req, res, (error?: unknown) => {
      slot.release();
      next(error);
    });
  };
}

/** A form posted from another origin is refused before it is read. */
const refuseCrossSite: RequestHandler = (req, res, next) => {
  if (!sameOrigin(req)) return html(res, 403, messagePage(null, undefined, "Refused", "This form was posted from another site."));
  next();
};

export function reviewPageRouter(desk: ReviewDesk, auth: ReviewerAuth): Router {
  const router = Router();
  const slots = new ReadSlots({ total: MAX_FORM_READS, perClient: MAX_FORM_READS_PER_CLIENT });
  const form = boundedReads(express.urlencoded({ extended: false, limit: FORM_LIMIT_BYTES, parameterLimit: 10 }), slots);
  router.use("/review", (_req, res, next) => secure(res, next));

  router.get("/review/review.css", (_req, res) => {
    res.type("css").setHeader("Cache-Control", "public, max-age=300").send(REVIEW_CSS);
  });

  /** The signed-in reviewer, or null after answering with the login page. */
  async function signedIn(req: Request, res: Response): Promise<{ reviewer: Reviewer; csrf: string } | null> {
    const token = cookieToken(req);
    const result = await auth.authenticate(token);
    if (result.ok) return { reviewer: result.value, csrf: csrfFor(token ?? "") };
    if (token !== undefined) setCookie(req, res, null);
    html(res, result.error.code === "FORBIDDEN" ? 403 : 401, loginPage(token === undefined ? null : "Your sign-in has expired or is no longer valid."));
    return null;
  }

  router.get("/review", async (req, res) => {
    const session = await signedIn(req, res);
    if (!session) return;
    const { identity } = session.reviewer;
    const listed = await desk.list(identity);
    if (!listed.ok) return html(res, listed.error.status, messagePage(identity, session.csrf, "Not a reviewer", listed.error.publicMessage));
    html(res, 200, queuePage(identity, session.csrf, listed.value));
  });

  router.post("/review/login", refuseCrossSite, form, async (req, res) => {
    const token = formField(req, "token")?.trim() ?? "";
    const result = await auth.authenticate(token);
    if (!result.ok) return html(res, result.error.code === "FORBIDDEN" ? 403 : 401, loginPage(result.error.publicMessage));
    // Someone in no reviewer group may read nothing here: refused at the door, no cookie set.
    const groups = desk.reviewerGroups(result.value.identity);
    if (!groups.ok) return html(res, groups.error.status, loginPage(groups.error.publicMessage));
    setCookie(req, res, token, sessionSeconds(result.value));
    res.redirect(303, "/review");
  });

  // Another site's form would sign the reviewer out (the answer clears the cookie) in the middle of a
  // review. The form carries nothing the answer needs: it is not read.
  router.post("/review/logout", refuseCrossSite, (req, res) => {
    setCookie(req, res, null);
    res.redirect(303, "/review");
  });

  router.get("/review/vaults/:vault/transactions/:transaction", async (req, res) => {
    const session = await signedIn(req, res);
    if (!session) return;
    const { identity } = session.reviewer;
    const groups = desk.reviewerGroups(identity);
    if (!groups.ok) return html(res, groups.error.status, messagePage(identity, session.csrf, "Not a reviewer", groups.error.publicMessage));
    const name = transactionNameOf(req.params.vault, req.params.transaction);
    const view = name ? await desk.get(name, identity) : undefined;
    if (!view || (!view.ok && view.error.code === "NOT_FOUND")) return html(res, 404, messagePage(identity, session.csrf, "Not found", "This transaction has no review."));
    if (!view.ok) return html(res, view.error.status, messagePage(identity, session.csrf, "Not a reviewer", view.error.publicMessage));
    const done = typeof req.query.done === "string" && ["approved", "rejected"].includes(req.query.done) ? `You ${req.query.done} this transaction.` : null;
    html(res, 200, reviewPage(identity, session.csrf, view.value, done));
  });

  /** The session, checked before the form is read (its CSRF token is in the form, checked after). */
  const requireSession: RequestHandler = async (req, res, next) => {
    const session = await signedIn(req, res);
    if (!session) return;
    res.locals.session = session;
    next();
  };
  const reviewVerb: RequestHandler = (req, _res, next) => next(req.params.verb === "approve" || req.params.verb === "reject" ? undefined : "route");

  router.post("/review/vaults/:vault/transactions/:transaction/:verb", reviewVerb, refuseCrossSite, requireSession, form, async (req, res) => {
    const verb = req.params.verb as "approve" | "reject";
    const session = res.locals.session as { reviewer: Reviewer; csrf: string };
    const { identity } = session.reviewer;
    const given = formField(req, "csrf") ?? "";
    if (given.length !== session.csrf.length || !timingSafeEqual(Buffer.from(given), Buffer.from(session.csrf))) {
      return html(res, 403, messagePage(identity, session.csrf, "Refused", "The form has expired; open the review again and retry."));
    }
    const name = transactionNameOf(req.params.vault, req.params.transaction);
    if (name === null) return html(res, 404, messagePage(identity, session.csrf, "Not found", "No such transaction."));
    const comment = actionComment(verb, formField(req, "comment")?.slice(0, 2000));
    if (comment instanceof AppError) return html(res, 400, messagePage(identity, session.csrf, "Not done", comment.publicMessage));
    const done = await desk.act(name, identity, verb, comment);
    if (!done.ok) return html(res, done.error.status, messagePage(identity, session.csrf, "Not done", done.error.publicMessage));
    res.redirect(303, `${pagePath(name)}?done=${verb === "approve" ? "approved" : "rejected"}`);
  });
  return router;
}
