/**
 * The metric readers OTEL_METRICS_EXPORTER asks for, as @opentelemetry/sdk-node 0.223 builds them
 * from the environment (otlp when unset, console, none), and whether it names prometheus. The SDK
 * builds them itself only when given no readers; it is given the scrape reader (scrape.ts), so the
 * rest are built here with the SDK's own helpers for OTLP (protocol, interval, timeout).
 * prometheus is not a reader of its own: the scrape reader serves it on its port.
 */
import { diag } from "@opentelemetry/api";
import { ConsoleMetricExporter, PeriodicExportingMetricReader, type IMetricReader } from "@opentelemetry/sdk-metrics";
import { getOtlpMetricExporterFromEnv, getPeriodicExportingMetricReaderFromEnv } from "@opentelemetry/sdk-node/build/src/utils.js";

export interface MetricExportFromEnv {
  /** Push readers: OTLP and console. */
  readers: IMetricReader[];
  /** OTEL_METRICS_EXPORTER names prometheus: serve the scrape on its own port too. */
  prometheusPort: boolean;
}

export function metricExportFromEnv(): MetricExportFromEnv {
  const named = [
    ...new Set(
      (process.env.OTEL_METRICS_EXPORTER ?? "")
        .split(",")
        .map((v) => v.trim())
        .filter((v) => v !== ""),
    ),
  ];
  const exporters = named.length === 0 ? ["otlp"] : named;
  if (exporters.includes("none")) return { readers: [], prometheusPort: false };
  const readers: IMetricReader[] = [];
  for (const exporter of exporters) {
    if (exporter === "otlp") readers.push(getPeriodicExportingMetricReaderFromEnv(getOtlpMetricExporterFromEnv()));
    else if (exporter === "console") readers.push(new PeriodicExportingMetricReader({ exporter: new ConsoleMetricExporter() }));
    else if (exporter !== "prometheus") diag.warn(`Unsupported OTEL_METRICS_EXPORTER value: "${exporter}". Supported values are: otlp, console, prometheus, none.`);
  }
  return { readers, prometheusPort: exporters.includes("prometheus") };
}
