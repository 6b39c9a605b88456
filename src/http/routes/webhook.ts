/**
 * `POST /v1/cosigner/webhook` — the co-signer's question. 200 answers only ever follow a
 * committed decision row; everything the service cannot decide is a 503 that leaves the
 * transaction pending for the co-signer's next poll.
 *
 * An express route like every other (src/http/app.ts mounts it first): the request id, the token
 * check, the body limit and encodings and the one error envelope are the same middleware the other
 * routes use. The server hands a delivery to these same handlers without express's dispatch
 * (src/http/front.ts says why); a request the front does not recognise still reaches them through
 * express. Only what an unforeseen error becomes differs: here it defers (503) rather than
 * answering 500, since a 503 is what leaves the transaction pending (docs/interface.md).
 */
import { decide, type Decided } from "../../decision/decide.js";
import type { DecisionDeps, UnavailableCause } from "../../decision/deps.js";
import { AppError } from "../../core/errors.js";
import { describeError } from "../../log.js";
import { decisionMeasure, shadowDisagreement, traceDecision } from "../../decision/telemetry.js";
import type { ServiceMetrics } from "../../telemetry/metrics.js";
import type { Transaction } from "../../core/transaction/types.js";
import { parseTransaction } from "../../core/transaction/parse.js";
import type { IncomingMessage } from "node:http";
import { requireWebhookToken } from "../auth.js";
import type { ErrorHandler, Handler, HttpResponse } from "../front.js";
import { requestIdOf, sendAppError, sendError, sendJson } from "../envelope.js";
import { parseJsonBody, rawBody } from "../json-body.js";

export const WEBHOOK_PATH = "/v1/cosigner/webhook";

/** WEBHOOK_PATH as express matches a route's path: any letter case, one trailing slash, a query after. */
const WEBHOOK_REQUEST = /^\/v1\/cosigner\/webhook\/?(?:\?|$)/i;

/** Whether express would route `req` to the webhook (app.post(WEBHOOK_PATH)). */
export function isWebhookDelivery(req: IncomingMessage): boolean {
  return req.method === "POST" && WEBHOOK_REQUEST.test(req.url ?? "");
}

/** Why a delivery that could not be decided waits, in the answer's words. */
const STAND_DOWN: Record<UnavailableCause | "unavailable", string> = {
  clock_skew: "this replica's clock is out of step with the database's",
  platform_unavailable: "platform check unavailable",
  policy_superseded: "this replica's policy bundle has been replaced on another replica, and it has not loaded the new one yet",
  unavailable: "the decision cannot be made right now",
};

export interface WebhookOptions {
  webhookToken: string | undefined;
  bodyLimitBytes: number;
  metrics?: ServiceMetrics;
}

/**
 * The route's handlers, in order, for app.ts to mount and hand to the front. The token is checked
 * before the body is read: an unauthenticated sender's bytes are discarded.
 */
export function webhookRoute(deps: DecisionDeps, options: WebhookOptions): [Handler, Handler, Handler, ErrorHandler] {
  return [requireWebhookToken(options.webhookToken), rawBody(options.bodyLimitBytes), decideDelivery(deps, options.metrics), deferOnError(deps)];
}

function decideDelivery(deps: DecisionDeps, metrics: ServiceMetrics | undefined): Handler {
  return async (req, res) => {
    const parsed = parseTransaction(parseJsonBody(req.body));
    if (!parsed.ok) return sendAppError(res, parsed.error);
    // Whatever fails from here on, whatever its type, is no answer about the body: it defers.
    await decideAndAnswer(deps, metrics, parsed.value, res).catch((error: unknown) => defer(deps, error, res));
  };
}

async function decideAndAnswer(deps: DecisionDeps, metrics: ServiceMetrics | undefined, tx: Transaction, res: HttpResponse): Promise<void> {
  const requestId = requestIdOf(res);
  const startedAt = res.locals.startedAt as number;
  const result = await traceDecision(tx, requestId, () => decide(deps, tx, requestId, startedAt));
  metrics?.decision(decisionMeasure(result, (performance.now() - startedAt) / 1000));
  if (result.kind === "refused") return sendAppError(res, result.error);
  if (result.kind === "unavailable") return sendError(res, "DEFERRED", `${STAND_DOWN[result.cause ?? "unavailable"]}; the transaction stays pending`);
  // Named only when it differs: a disagreement is what someone watching a candidate looks for.
  const disagreement = shadowDisagreement(result);
  if (disagreement) metrics?.shadowDisagreement(disagreement);
  deps.logger.info(
    {
      requestId,
      transaction: tx.name,
      decision: result.decision,
      decisionId: result.decisionId,
      replayed: result.replayed,
      ...(disagreement ? { shadowDecision: disagreement.shadow } : {}),
    },
    "decision",
  );
  answer(res, result);
}

function answer(res: HttpResponse, decided: Decided): void {
  const common = { decisionId: decided.decisionId, policyVersion: decided.policyVersion, ...(decided.replayOf ? { replayOf: decided.replayOf } : {}) };
  if (decided.decision === "allow") return sendJson(res, 200, { signTransaction: true, ...common });
  if (decided.decision === "deny") return sendJson(res, 200, { signTransaction: false, ...common, reasons: decided.reasons });
  sendError(res, "DEFERRED", `deferred: ${decided.reasons.join("; ")}`, { ...common, reasons: decided.reasons });
}

/** A body that could not be read or parsed is answered in the envelope; any other error defers. */
function deferOnError(deps: DecisionDeps): ErrorHandler {
  return (error, _req, res, _next) => (error instanceof AppError ? sendAppError(res, error) : defer(deps, error, res));
}

/**
 * An error no step turned into an answer still leaves the transaction pending, as a 503 DEFERRED
 * with Retry-After (docs/interface.md: an internal error defers); its detail stays in the log.
 */
function defer(deps: DecisionDeps, error: unknown, res: HttpResponse): void {
  deps.logger.error({ requestId: requestIdOf(res), path: WEBHOOK_PATH, ...describeError(error) }, "unhandled error");
  if (!res.headersSent) sendError(res, "DEFERRED", `${STAND_DOWN.unavailable}; the transaction stays pending`);
}
