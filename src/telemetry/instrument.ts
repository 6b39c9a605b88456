/**
 * The OpenTelemetry entry point, loaded before the service (`node --import` of this file, or
 * bin/countersign.js importing it first). It starts the SDK only when the standard OTEL_*
 * variables ask for it (otel-env.ts), so a plain start loads nothing beyond this small module.
 * Never imported by the service's own modules or by tests: under vitest no SDK exists and
 * @opentelemetry/api is a no-op.
 */
import { telemetryWanted } from "./otel-env.js";

if (telemetryWanted(process.env)) {
  const { startTelemetry } = await import("./sdk.js");
  startTelemetry();
}
