/**
 * `POST /v1/policy/replay`: a candidate bundle replayed on the running service's recorded
 * decisions, for `countersign policy replay` beside a `serve` that holds the embedded database.
 * The CLI sends the bundle's files; they are loaded with the bundle loader (in memory, nothing is
 * written) and replayed read-only, as the CLI does. The admin token only: the report names
 * transactions and amounts.
 */
import { Router } from "express";
import type { Db } from "../../database.js";
import { describeError, type Logger } from "../../log.js";
import { bundleFromFiles } from "../../policy/load.js";
import { replay } from "../../replay/replay.js";
import { replayRequestSchema, sentBundleOf } from "../../replay/replay-request.js";
import { requireAdminToken } from "../auth.js";
import { requestIdOf, sendError } from "../envelope.js";
import { parseJsonBody, rawBody } from "../json-body.js";

export function policyReplayRouter(db: Db, options: { adminToken: string | undefined; bodyLimitBytes: number; logger: Logger }): Router {
  const router = Router();
  router.post("/v1/policy/replay", requireAdminToken(options.adminToken), rawBody(options.bodyLimitBytes), async (req, res) => {
    const request = replayRequestSchema.safeParse(parseJsonBody(req.body));
    if (!request.success) return sendError(res, "INVALID_REQUEST", "the body must be {candidate: {directory, files: [{path, content}]}, from, to, vault?, now}");
    const sent = sentBundleOf(request.data);
    const loaded = bundleFromFiles(sent.directory, sent.files);
    if (!loaded.ok) return sendError(res, "INVALID_REQUEST", "the candidate bundle is refused (countersign policy check shows why)");
    const { from, to, vault, now } = request.data;
    const range = { from: new Date(from), to: new Date(to), ...(vault ? { vault } : {}) };
    if (range.from >= range.to) return sendError(res, "INVALID_REQUEST", "from must be before to");
    try {
      res.json(await replay(db, loaded.value, range, { now: new Date(now) }));
    } catch (error) {
      options.logger.warn({ requestId: requestIdOf(res), ...describeError(error) }, "policy replay unavailable");
      sendError(res, "UNAVAILABLE", "the recorded decisions cannot be read right now");
    }
  });
  return router;
}
