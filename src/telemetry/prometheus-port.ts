/**
 * OTEL_METRICS_EXPORTER=prometheus: the scrape served on a port of its own
 * (OTEL_EXPORTER_PROMETHEUS_HOST, OTEL_EXPORTER_PROMETHEUS_PORT, 9464 by default), with the same
 * text and names as `GET /metrics` on the service port, for a deployment that admits Prometheus to
 * this port only (the chart's NetworkPolicy).
 */
import { createServer, type Server } from "node:http";
import { diag } from "@opentelemetry/api";
import { PROMETHEUS_CONTENT_TYPE, scrapeText } from "./scrape.js";

const DEFAULT_PORT = 9464;

export function servePrometheusPort(env: NodeJS.ProcessEnv = process.env): Server {
  const port = Number(env.OTEL_EXPORTER_PROMETHEUS_PORT?.trim() || DEFAULT_PORT);
  const host = env.OTEL_EXPORTER_PROMETHEUS_HOST?.trim() || undefined;
  const server = createServer((req, res) => {
    if (req.method !== "GET" || (req.url ?? "").split("?")[0] !== "/metrics") {
      res.writeHead(404).end();
      return;
    }
    scrapeText().then(
      (text) => res.writeHead(200, { "content-type": PROMETHEUS_CONTENT_TYPE }).end(text),
      () => res.writeHead(503).end(),
    );
  });
  server.on("error", (error) => diag.error(`the Prometheus port ${port} could not listen: ${error.message}`));
  // Like the SDK's timers, the port does not keep the process alive; shutdown closes it.
  server.unref().listen(port, host);
  return server;
}
