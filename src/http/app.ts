/**
 * The express application: routes in the order a request meets them, the 404 and the one error
 * envelope. Built from its dependencies so tests run it on port 0 with their own.
 */
import express, { type RequestHandler } from "express";
import type { DecisionDeps } from "../decision/deps.js";
import { errorHandler, sendError } from "./envelope.js";
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
import { webhookRouter, type WebhookOptions } from "./routes/webhook.js";
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

export function createApp(options: AppOptions): express.Express {
  const app = express();
  app.disable("x-powered-by");
  // No ETag: every answer here is fresh (a decision, a status); computing one hashed each co-signer
  // answer for nothing (src/http/request-body.ts says what dropping it and body-parser saved).
  app.set("etag", false);
  app.set("trust proxy", options.trustProxy ?? false);
  app.set("query parser", "simple");
  app.use(requestContext);
  // First, so a co-signer delivery (nearly every request) meets no other route's matcher.
  app.use(webhookRouter(options.decision, { ...options.webhook, bodyLimitBytes: options.bodyLimitBytes }));
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
  app.use((req, res) => {
    sendError(res, "NOT_FOUND", `no route for ${req.method} ${req.path}`);
  });
  app.use(errorHandler(options.decision.logger));
  return app;
}
