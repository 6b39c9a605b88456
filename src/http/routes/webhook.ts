/**
 * `POST /v1/cosigner/webhook` — the co-signer's question. 200 answers only ever follow a
 * committed decision row; everything the service cannot decide is a 503 that leaves the
 * transaction pending for the co-signer's next poll.
 *
 * Served straight from node:http (src/http/server.ts routes it here), not through express, which
 * serves every other route: express's routing, middleware chain and response helpers cost this
 * hot path about a fifth of the service's instructions per decision (callgrind over ~700 webhook
 * decisions: 3.1 against 2.45 million with this endpoint; README "What a decision costs"). The
 * answers are the same: the request id, the token forms, the body limit and encodings, and the one
 * error envelope.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { context } from "@opentelemetry/api";
import { getRPCMetadata, RPCType } from "@opentelemetry/core";
import { decide, type Decided } from "../../decision/decide.js";
import type { DecisionDeps, StandDownCause } from "../../decision/deps.js";
import { AppError, ERROR_STATUS, type ErrorCode } from "../../core/errors.js";
import { describeError } from "../../log.js";
import { decisionMeasure, shadowDisagreement, traceDecision } from "../../decision/telemetry.js";
import type { ServiceMetrics } from "../../telemetry/metrics.js";
import { parseTransaction } from "../../core/transaction/parse.js";
import { WEBHOOK_CHALLENGE, webhookCredentials, webhookTokenOffered } from "../auth.js";
import { errorBody, RETRY_AFTER_SECONDS } from "../envelope.js";
import { bodyReadError, parseJsonBody } from "../json-body.js";
import { requestIdFrom } from "../request-context.js";
import { readRequestBody } from "../request-body.js";

export const WEBHOOK_PATH = "/v1/cosigner/webhook";

/** Why a delivery that could not be decided waits, in the answer's words. */
const STAND_DOWN: Record<StandDownCause | "unavailable", string> = {
  clock_skew: "this replica's clock is out of step with the database's",
  policy_superseded: "this replica's policy bundle has been replaced on another replica, and it has not loaded the new one yet",
  unavailable: "the decision cannot be made right now",
};

export interface WebhookOptions {
  webhookToken: string | undefined;
  bodyLimitBytes: number;
  metrics?: ServiceMetrics;
}

export type WebhookEndpoint = (req: IncomingMessage, res: ServerResponse) => void;

/** One co-signer delivery, its answer written on `res`. */
interface Delivery {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  startedAt: number;
}

export function webhookEndpoint(deps: DecisionDeps, options: WebhookOptions): WebhookEndpoint {
  return (req, res) => {
    const delivery: Delivery = { req, res, requestId: requestIdFrom(req.headers["x-request-id"]), startedAt: performance.now() };
    // The HTTP server span (when telemetry is on) is named after the route, as express names its routes'.
    const rpc = getRPCMetadata(context.active());
    if (rpc?.type === RPCType.HTTP) rpc.route = WEBHOOK_PATH;
    res.setHeader("X-Request-Id", delivery.requestId);
    answerDelivery(deps, options, delivery).catch((error: unknown) => {
      deps.logger.error({ requestId: delivery.requestId, path: WEBHOOK_PATH, ...describeError(error) }, "unhandled error");
      // An error no step turned into an answer still leaves the transaction pending, as a 503 with
      // Retry-After (docs/interface.md: an internal error defers), and its detail stays in the log.
      if (res.headersSent) return;
      res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
      writeError(delivery, "DEFERRED", `${STAND_DOWN.unavailable}; the transaction stays pending`);
    });
  };
}

async function answerDelivery(deps: DecisionDeps, options: WebhookOptions, d: Delivery): Promise<void> {
  if (!tokenAccepted(d, options.webhookToken)) return;
  let body: Buffer;
  try {
    body = await readRequestBody(d.req, options.bodyLimitBytes);
  } catch (error) {
    return writeAppError(d, bodyReadError(error));
  }
  let parsed;
  try {
    parsed = parseTransaction(parseJsonBody(body));
  } catch (error) {
    return writeAppError(d, error);
  }
  if (!parsed.ok) return writeAppError(d, parsed.error);
  const tx = parsed.value;
  const result = await traceDecision(tx, d.requestId, () => decide(deps, tx, d.requestId, d.startedAt));
  options.metrics?.decision(decisionMeasure(result, (performance.now() - d.startedAt) / 1000));
  if (result.kind === "refused") return writeAppError(d, result.error);
  if (result.kind === "unavailable") {
    d.res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
    return writeError(d, "DEFERRED", `${STAND_DOWN[result.cause ?? "unavailable"]}; the transaction stays pending`);
  }
  // Named only when it differs: a disagreement is what someone watching a candidate looks for.
  const disagreement = shadowDisagreement(result);
  if (disagreement) options.metrics?.shadowDisagreement(disagreement);
  deps.logger.info(
    {
      requestId: d.requestId,
      transaction: tx.name,
      decision: result.decision,
      decisionId: result.decisionId,
      replayed: result.replayed,
      ...(disagreement ? { shadowDecision: disagreement.shadow } : {}),
    },
    "decision",
  );
  answer(d, result);
}

/** Without a configured token every request passes (loadConfig allows that on loopback only). */
function tokenAccepted(d: Delivery, expected: string | undefined): boolean {
  if (expected === undefined) return true;
  const query = d.req.url?.includes("?") ? new URLSearchParams(d.req.url.slice(d.req.url.indexOf("?") + 1)) : new URLSearchParams();
  const offered = webhookCredentials(d.req.headers.authorization, query);
  if (webhookTokenOffered(offered, expected)) return true;
  // The body is not read; node discards it once the answer is written.
  d.res.setHeader("WWW-Authenticate", WEBHOOK_CHALLENGE);
  writeError(d, "UNAUTHORIZED", offered.length === 0 ? "webhook token required" : "webhook token is not valid");
  return false;
}

function answer(d: Delivery, decided: Decided): void {
  const common = { decisionId: decided.decisionId, policyVersion: decided.policyVersion, ...(decided.replayOf ? { replayOf: decided.replayOf } : {}) };
  if (decided.decision === "allow") return writeJson(d.res, 200, { signTransaction: true, ...common });
  if (decided.decision === "deny") return writeJson(d.res, 200, { signTransaction: false, ...common, reasons: decided.reasons });
  d.res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
  writeError(d, "DEFERRED", `deferred: ${decided.reasons.join("; ")}`, { ...common, reasons: decided.reasons });
}

/** An AppError in the envelope; anything else is an internal error, logged, answered without its detail. */
function writeAppError(d: Delivery, error: unknown): void {
  if (!(error instanceof AppError)) throw error;
  writeError(d, error.code, error.publicMessage, error.details === undefined ? {} : { details: error.details });
}

function writeError(d: Delivery, code: ErrorCode, message: string, extra: Record<string, unknown> = {}): void {
  writeJson(d.res, ERROR_STATUS[code], errorBody(code, message, d.requestId, extra));
}

function writeJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}
