/**
 * `POST /v1/audit/verify`: the audit trail's hash chain verified by the running service, for
 * `countersign audit verify` beside a `serve` that holds the embedded database (one process may
 * open it). The same verify as the CLI's, answered as its report or its refusal: the admin token only.
 */
import { Router } from "express";
import { verifyOptionsOf, verifyOutcome, verifyRequestSchema } from "../../audit/verify-outcome.js";
import type { Db } from "../../database.js";
import { describeError, type Logger } from "../../log.js";
import { requireAdminToken } from "../auth.js";
import { requestIdOf, sendError } from "../envelope.js";
import { parseJsonBody, rawBody } from "../json-body.js";

export function auditRouter(db: Db, options: { adminToken: string | undefined; bodyLimitBytes: number; logger: Logger }): Router {
  const router = Router();
  router.post("/v1/audit/verify", requireAdminToken(options.adminToken), rawBody(options.bodyLimitBytes), async (req, res) => {
    const request = verifyRequestSchema.safeParse(parseJsonBody(req.body));
    if (!request.success) {
      return sendError(res, "INVALID_REQUEST", "the body must be {schema?, from?, checkpoint?: {position, hash}}, from only with checkpoint");
    }
    try {
      res.json(await verifyOutcome(db, verifyOptionsOf(request.data)));
    } catch (error) {
      options.logger.warn({ requestId: requestIdOf(res), ...describeError(error) }, "audit verify unavailable");
      sendError(res, "UNAVAILABLE", "the audit trail cannot be read right now");
    }
  });
  return router;
}
