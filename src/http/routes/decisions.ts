/**
 * `GET /v1/decisions/{id}` and `GET /v1/decisions?transaction=NAME`: recorded decisions, read while
 * the service runs (an embedded database admits one process, so the CLI cannot open it beside
 * `serve`). Rows carry the transaction's snapshot: the admin token only.
 */
import { Router, type RequestHandler } from "express";
import { decisionsOfTransaction, readDecision } from "../../audit/decision-view.js";
import type { Db } from "../../database.js";
import { TRANSACTION_NAME } from "../../core/transaction/resource-names.js";
import { requireAdminToken } from "../auth.js";
import { sendError } from "../envelope.js";

/** A database that cannot be read right now is a 503 to retry, not an internal error. */
const readOr503 =
  (handler: RequestHandler): RequestHandler =>
  async (req, res, next) => {
    try {
      await handler(req, res, next);
    } catch {
      sendError(res, "UNAVAILABLE", "decisions cannot be read right now");
    }
  };

export function decisionsRouter(db: Db, adminToken: string | undefined): Router {
  const router = Router();
  const admin = requireAdminToken(adminToken);

  router.get(
    "/v1/decisions/:id",
    admin,
    readOr503(async (req, res) => {
      const view = await readDecision(db, req.params.id as string);
      if (!view) return sendError(res, "NOT_FOUND", "no decision of this id");
      res.json(view);
    }),
  );

  router.get(
    "/v1/decisions",
    admin,
    readOr503(async (req, res) => {
      const name = req.query.transaction;
      if (typeof name !== "string" || !TRANSACTION_NAME.test(name)) {
        return sendError(res, "INVALID_REQUEST", "transaction=vaults/{vault}/transactions/{transaction} is required");
      }
      res.json({ decisions: await decisionsOfTransaction(db, name) });
    }),
  );
  return router;
}
