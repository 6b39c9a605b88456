/**
 * The express application: routes in the order a request meets them, the 404 and the one error
 * envelope. Built from its dependencies so tests run it on port 0 with their own.
 */
import express, { Router, type RequestHandler } from "express";
import type { DecisionDeps } from "../decision/deps.js";
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorHandler, notFound } from "./envelope.js";
import { chainOf } from "./front.js";
import { openApiDocument } from "./openapi.js";
import { requestContext } from "./request-context.js";
import { auditRouter } from "./routes/audit.js";
import { decisionsRouter } from "./routes/decisions.js";
import { evaluateRouter } from "./routes/evaluate.js";
import { metricsRouter } from "./routes/metrics.js";
import { policyReplayRouter } from "./routes/policy-replay.js";
import { reviewRouter } from "./routes/review.js";
import { reviewPageRouter } from "./routes/review-page.js";
import type { ReviewerAuth } from "../review/auth.js";
import type { ReviewDesk } from "../review/desk.js";
import { statusRouter, type StatusOptions } from "./routes/status.js";
import { WEBHOOK_PATH, webhookRoute, type WebhookOptions } from "./routes/webhook.js";
import type { TrustProxy } from "../trust-proxy.js";

export interface AppOptions {
  decision: DecisionDeps;
  /** The co-signer's webhook: its token and the decisions' metrics (the body limit is bodyLimitBytes). */
  webhook: Omit<WebhookOptions, "bodyLimitBytes">;
  status: Omit<StatusOptions, "db">;
  adminToken: string | undefined;
  /** Required of `GET /metrics` when set (COUNTERSIGN_METRICS_TOKEN); the scrape is open otherwise. */
  metricsToken?: string | undefined;
  bodyLimitBytes: number;
  /** Proxies whose X-Forwarded-Proto/-Host to believe (COUNTERSIGN_TRUST_PROXY); none when omitted. */
  trustProxy?: TrustProxy;
  /** `POST /v1/events`, when the event webhook is configured. */
  eventsHandler?: RequestHandler;
  /** The review API and page (docs/interface.md section 9). */
  review?: { desk: ReviewDesk; auth: ReviewerAuth };
}

/** The express application, and the webhook's route as the front serves it (front.ts). */
export interface HttpApp {
  app: express.Express;
  webhook: (req: IncomingMessage, res: ServerResponse) => void;
}

export function createApp(options: AppOptions): HttpApp {
  const app = express();
  app.disable("x-powered-by");
  // No ETag: every answer here is fresh (a decision, a status); computing one hashed each co-signer
  // answer for nothing (src/http/request-body.ts says what dropping it and body-parser saved).
  app.set("etag", false);
  app.set("trust proxy", options.trustProxy ?? false);
  app.set("query parser", "simple");
  const webhook = webhookRoute(options.decision, { ...options.webhook, bodyLimitBytes: options.bodyLimitBytes });
  const onError = errorHandler(options.decision.logger);
  app.use(requestContext);
  // First, so a co-signer delivery (nearly every request) meets no other route's matcher.
  // In a router of its own, which answers OPTIONS on the path with the methods it serves.
  app.use(Router().post(WEBHOOK_PATH, ...webhook));
  app.use(evaluateRouter(options.decision, { adminToken: options.adminToken, bodyLimitBytes: options.bodyLimitBytes }));
  app.use(decisionsRouter(options.decision.db, options.adminToken));
  const adminReads = { adminToken: options.adminToken, bodyLimitBytes: options.bodyLimitBytes, logger: options.decision.logger };
  app.use(auditRouter(options.decision.db, adminReads), policyReplayRouter(options.decision.db, adminReads));
  app.use(statusRouter({ db: options.decision.db, adminToken: options.adminToken, ...options.status }));
  app.use(metricsRouter(options.metricsToken));
  if (options.eventsHandler) app.post("/v1/events", options.eventsHandler);
  if (options.review) app.use(reviewRouter(options.review.desk, options.review.auth), reviewPageRouter(options.review.desk, options.review.auth));
  app.get("/openapi.json", (_req, res) => {
    res.json(openApiDocument());
  });
  app.use(notFound);
  app.use(onError);
  // The same handlers in the order express meets them on this route, the application's last included.
  return { app, webhook: chainOf([requestContext, ...webhook, notFound, onError]) };
}
