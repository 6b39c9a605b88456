/**
 * The review API (docs/interface.md section 9): reviewers list, read, approve and reject reviews of
 * deferred transactions with their own credentials (src/review/auth.ts). The credential says who
 * the caller is; the desk (src/review/desk.ts) decides what a member of which reviewer groups may
 * read or do: someone in no group of the bundle in force gets 403 NOT_A_REVIEWER on every route.
 */
import { Router, type RequestHandler } from "express";
import { z } from "zod";
import { AppError } from "../../core/errors.js";
import type { Reviewer, ReviewerAuth } from "../../review/auth.js";
import { bearerToken } from "../auth.js";
import type { ReviewDesk } from "../../review/desk.js";
import { sendAppError, sendError } from "../envelope.js";
import { parseJsonBody, rawBody } from "../json-body.js";

const STATES = ["open", "approved", "rejected", "expired"] as const;
const ID = /^[A-Za-z0-9_-]+$/;
const COMMENT_MAX = 2000;
const BODY_LIMIT = 16 * 1024;

const REJECTION_NEEDS_COMMENT = "a rejection needs a comment saying why";
const comment = (error?: string) =>
  z
    .string(error === undefined ? undefined : { error })
    .trim()
    .max(COMMENT_MAX, `a comment is at most ${COMMENT_MAX} characters`);

/** An approval's body: its comment is optional. */
export const reviewActionBody = z.strictObject({ comment: comment().optional() });

/** A rejection's body: the comment saying why is required and not blank. */
export const reviewRejectionBody = z.strictObject({
  comment: comment(REJECTION_NEEDS_COMMENT).min(1, REJECTION_NEEDS_COMMENT).describe("why; blank is refused"),
});

export function requireReviewer(auth: ReviewerAuth): RequestHandler {
  return (req, res, next) => {
    auth.authenticate(bearerToken(req)).then((result) => {
      if (!result.ok) {
        if (result.error.code === "UNAUTHORIZED") res.setHeader("WWW-Authenticate", 'Bearer realm="countersign-review"');
        return sendAppError(res, result.error);
      }
      res.locals.reviewer = result.value;
      next();
    }, next);
  };
}

/** `vaults/{v}/transactions/{t}` from the path, or null when either id is malformed. */
export function transactionNameOf(vault: unknown, transaction: unknown): string | null {
  if (typeof vault !== "string" || typeof transaction !== "string" || !ID.test(vault) || !ID.test(transaction)) return null;
  return `vaults/${vault}/transactions/${transaction}`;
}

/** Approve's comment is optional; reject's is required. */
export function actionComment(verb: "approve" | "reject", comment: string | undefined): string | null | AppError {
  const text = comment?.trim() ?? "";
  if (verb === "reject" && text === "") return new AppError("INVALID_REQUEST", REJECTION_NEEDS_COMMENT);
  return text === "" ? null : text;
}

export function reviewRouter(desk: ReviewDesk, auth: ReviewerAuth): Router {
  const router = Router();
  const reviewer = requireReviewer(auth);

  router.get("/v1/reviews", reviewer, async (req, res) => {
    const state = req.query.state;
    if (state !== undefined && !STATES.includes(state as (typeof STATES)[number])) {
      return sendError(res, "INVALID_REQUEST", `state is one of ${STATES.join(", ")}`);
    }
    const { identity } = res.locals.reviewer as Reviewer;
    const listed = await desk.list(identity, state as (typeof STATES)[number] | undefined);
    if (!listed.ok) return sendAppError(res, listed.error);
    res.json({ reviews: listed.value });
  });

  router.get("/v1/vaults/:vault/transactions/:transaction/review", reviewer, async (req, res) => {
    const { identity } = res.locals.reviewer as Reviewer;
    const groups = desk.reviewerGroups(identity);
    if (!groups.ok) return sendAppError(res, groups.error); // before the 404 below, which would tell an outsider which names exist
    const name = transactionNameOf(req.params.vault, req.params.transaction);
    if (name === null) return sendError(res, "NOT_FOUND", "no such transaction");
    const view = await desk.get(name, identity);
    if (!view.ok) return sendAppError(res, view.error);
    res.json(view.value);
  });

  router.post("/v1/vaults/:vault/transactions/:transaction/:verb", reviewer, rawBody(BODY_LIMIT), async (req, res, next) => {
    const verb = req.params.verb === "review:approve" ? "approve" : req.params.verb === "review:reject" ? "reject" : null;
    if (verb === null) return next();
    const name = transactionNameOf(req.params.vault, req.params.transaction);
    if (name === null) return sendError(res, "NOT_FOUND", "no such transaction");
    const empty = !Buffer.isBuffer(req.body) || req.body.length === 0;
    const body = (verb === "reject" ? reviewRejectionBody : reviewActionBody).safeParse(empty ? {} : parseJsonBody(req.body));
    if (!body.success) return sendError(res, "INVALID_REQUEST", body.error.issues.map((i) => i.message).join("; "));
    const comment = actionComment(verb, body.data.comment);
    if (comment instanceof AppError) return sendAppError(res, comment);
    const { identity } = res.locals.reviewer as Reviewer;
    const done = await desk.act(name, identity, verb, comment);
    if (!done.ok) return sendAppError(res, done.error);
    res.json(done.value);
  });
  return router;
}
