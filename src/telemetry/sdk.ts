/**
 * Starts @opentelemetry/sdk-node, configured by the standard OTEL_* variables (exporters,
 * endpoints, protocol, sampler, resource, service name), with the three instrumentations the
 * service needs: incoming HTTP, express routing and pg queries. Its MeterProvider holds the
 * scrape reader of `GET /metrics` beside the readers the variables ask for (metric-readers.ts).
 * Loaded only by instrument.ts.
 */
import { register } from "node:module";
import { ExpressInstrumentation, ExpressLayerType } from "@opentelemetry/instrumentation-express";
import { HttpInstrumentation } from "@opentelemetry/instrumentation-http";
import { PgInstrumentation } from "@opentelemetry/instrumentation-pg";
import { NodeSDK } from "@opentelemetry/sdk-node";
import { onTelemetryShutdown } from "./lifecycle.js";
import { metricExportFromEnv } from "./metric-readers.js";
import { nameTheService } from "./otel-env.js";
import { bindPrometheusToServiceHost } from "./prometheus-host.js";
import { servePrometheusPort } from "./prometheus-port.js";
import { scrapeReaderForSdk } from "./scrape.js";

/** The service is ESM: its imports of these packages are hooked by import-in-the-middle. */
const HOOKED_MODULES = ["express", "pg", "pg-pool", "http", "https"];

/** Probes arrive every few seconds from the kubelet; their spans would drown the decisions. */
const UNTRACED_PATHS = new Set(["/healthz", "/readyz"]);

/**
 * `?token=` is one of the ways the co-signer may send the webhook token (README); it must never
 * reach a span. The rest are the instrumentation's own defaults, kept.
 */
const SECRET_QUERY_PARAMETERS = ["token", "sig", "Signature", "AWSAccessKeyId", "X-Goog-Signature"];

export function startTelemetry(): NodeSDK {
  register("@opentelemetry/instrumentation/hook.mjs", import.meta.url, { data: { include: HOOKED_MODULES } });
  bindPrometheusToServiceHost();
  nameTheService();
  const metricExport = metricExportFromEnv();
  const sdk = new NodeSDK({
    metricReaders: [...metricExport.readers, scrapeReaderForSdk()],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.has((req.url ?? "").split("?")[0] ?? ""),
        redactedQueryParamsServer: SECRET_QUERY_PARAMETERS,
        redactedQueryParams: SECRET_QUERY_PARAMETERS,
      }),
      // One span per route handler; the generic middleware (body reading, auth) adds only noise.
      new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] }),
      // Statements are parameterised and their values are not recorded (enhancedDatabaseReporting
      // stays off). Queries outside a traced request (the address-book sync) make no root spans.
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  const port = metricExport.prometheusPort ? servePrometheusPort() : undefined;
  const closePort = () => new Promise<void>((resolve) => (port ? port.close(() => resolve()) : resolve()));
  let stopping: Promise<void> | undefined;
  const stop = () => (stopping ??= Promise.all([sdk.shutdown().catch(() => undefined), closePort()]).then(() => undefined));
  onTelemetryShutdown(stop);
  return sdk;
}
