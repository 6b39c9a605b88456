/**
 * `POST /v1/cosigner/webhook` — the co-signer's question. 200 answers only ever follow a
 * committed decision row; everything the service cannot decide is a 503 that leaves the
 * transaction pending for the co-signer's next poll.
 */
import { Router, type Response } from "express";
import { decide, type Decided } from "../../decision/decide.js";
import type { DecisionDeps } from "../../decision/deps.js";
import { decisionMeasure, traceDecision } from "../../telemetry/decision.js";
import type { ServiceMetrics } from "../../telemetry/metrics.js";
import { parseTransaction } from "../../transaction/parse.js";
import { requireWebhookToken } from "../auth.js";
import { requestIdOf, sendAppError, sendError } from "../envelope.js";
import { parseJsonBody, rawBody } from "../json-body.js";

/** Seconds the co-signer is told to wait before asking again about a deferred transaction. */
export const RETRY_AFTER_SECONDS = 30;

export interface WebhookOptions {
  webhookToken: string | undefined;
  bodyLimitBytes: number;
  metrics?: ServiceMetrics;
}

export function webhookRouter(deps: DecisionDeps, options: WebhookOptions): Router {
  const router = Router();
  router.post("/v1/cosigner/webhook", requireWebhookToken(options.webhookToken), rawBody(options.bodyLimitBytes), async (req, res) => {
    const requestId = requestIdOf(res);
    const parsed = parseTransaction(parseJsonBody(req.body));
    if (!parsed.ok) return sendAppError(res, parsed.error);
    const tx = parsed.value;
    const startedAt = res.locals.startedAt as number;
    const result = await traceDecision(tx, requestId, () => decide(deps, tx, requestId, startedAt));
    options.metrics?.decision(decisionMeasure(result, (performance.now() - startedAt) / 1000));
    if (result.kind === "refused") return sendAppError(res, result.error);
    if (result.kind === "unavailable") {
      res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
      return sendError(res, "DEFERRED", "the decision cannot be made right now; the transaction stays pending");
    }
    deps.logger.info(
      { requestId, transaction: tx.name, decision: result.decision, decisionId: result.decisionId, replayed: result.replayed },
      "decision",
    );
    answer(res, result);
  });
  return router;
}

function answer(res: Response, d: Decided): void {
  const common = { decisionId: d.decisionId, policyVersion: d.policyVersion, ...(d.replayOf ? { replayOf: d.replayOf } : {}) };
  if (d.decision === "allow") {
    res.status(200).json({ signTransaction: true, ...common });
  } else if (d.decision === "deny") {
    res.status(200).json({ signTransaction: false, ...common, reasons: d.reasons });
  } else {
    res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
    sendError(res, "DEFERRED", `deferred: ${d.reasons.join("; ")}`, { ...common, reasons: d.reasons });
  }
}

