/**
 * `GET /metrics`: the process's metrics in Prometheus text (src/telemetry/scrape.ts). Open unless
 * COUNTERSIGN_METRICS_TOKEN is set, as Prometheus scrapes by convention: the metrics hold no
 * secret, and their labels (vault ids, rule ids, the bundle's version and digest) are what
 * `GET /v1/policy` already answers on this port. With the token set, a scrape must carry it as a
 * bearer token (Prometheus: `authorization.credentials_file`).
 */
import { Router, type RequestHandler } from "express";
import { PROMETHEUS_CONTENT_TYPE, scrapeText } from "../../telemetry/scrape.js";
import { bearerToken, tokensEqual } from "../auth.js";
import { sendError } from "../envelope.js";

function requireMetricsToken(expected: string | undefined): RequestHandler {
  return (req, res, next) => {
    if (expected === undefined) return next();
    const token = bearerToken(req);
    if (token !== undefined && tokensEqual(token, expected)) return next();
    res.setHeader("WWW-Authenticate", 'Bearer realm="countersign-metrics"');
    sendError(res, "UNAUTHORIZED", token === undefined ? "metrics token required" : "metrics token is not valid");
  };
}

export function metricsRouter(metricsToken: string | undefined): Router {
  const router = Router();
  router.get("/metrics", requireMetricsToken(metricsToken), async (_req, res) => {
    let text: string;
    try {
      text = await scrapeText();
    } catch {
      // No MeterProvider holds the reader (one registered before the service's), or it is shut down.
      return sendError(res, "UNAVAILABLE", "metrics are not available");
    }
    res.type(PROMETHEUS_CONTENT_TYPE).send(text);
  });
  return router;
}
