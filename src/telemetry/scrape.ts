/**
 * The process's Prometheus scrape: one pull reader on the MeterProvider the service's instruments
 * come from, answered as Prometheus text by `GET /metrics` on the service port and, when
 * OTEL_METRICS_EXPORTER names prometheus, on the exporter's own port (prometheus-port.ts).
 *
 * With the SDK started (sdk.ts), the reader is one of the SDK's metric readers, beside OTLP or
 * console; without it, ensureMeterProvider() makes a MeterProvider holding only this reader, so
 * /metrics answers on a plain start too. A pull reader costs nothing between scrapes: recording
 * is an in-memory aggregation, and the observable gauges are read only when scraped.
 * The reader lives on globalThis because the --import file and the service may load this module
 * under two URLs (a source tree run through tsx, a compiled tree).
 */
import { metrics } from "@opentelemetry/api";
import { PrometheusExporter, PrometheusSerializer } from "@opentelemetry/exporter-prometheus";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { DEFAULT_SERVICE_NAME } from "./otel-env.js";
import { withPrometheusUnits } from "./prometheus-names.js";

/** The content type of Prometheus's text exposition format. */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

const SCRAPE = Symbol.for("countersign.telemetry.scrape");

interface Scrape {
  reader: PrometheusExporter;
  /** Whether a MeterProvider holds the reader (the SDK's, or the one ensureMeterProvider made). */
  bound: boolean;
  /** The provider ensureMeterProvider made: a reader binds to one provider only, so it is made once. */
  provider?: MeterProvider;
}

type Holder = { [SCRAPE]?: Scrape };

function scrape(): Scrape {
  const holder = globalThis as Holder;
  // The exporter is used only as a pull reader: its own server never starts.
  return (holder[SCRAPE] ??= { reader: new PrometheusExporter({ preventServerStart: true }), bound: false });
}

/** The reader for the SDK to hold; once given, ensureMeterProvider() leaves the SDK's provider alone. */
export function scrapeReaderForSdk(): PrometheusExporter {
  const s = scrape();
  s.bound = true;
  return s.reader;
}

/**
 * Registers a MeterProvider holding the scrape reader unless one already does (the SDK's). Called
 * when the service starts, before its instruments are made. A provider someone else registered
 * first (a test's) is kept; /metrics then has nothing to read (scrapeText() rejects).
 */
export function ensureMeterProvider(env: NodeJS.ProcessEnv = process.env): void {
  const s = scrape();
  if (s.bound) return;
  const name = env.OTEL_SERVICE_NAME?.trim() || DEFAULT_SERVICE_NAME;
  s.provider ??= new MeterProvider({ resource: resourceFromAttributes({ "service.name": name }), readers: [s.reader] });
  if (metrics.setGlobalMeterProvider(s.provider)) s.bound = true;
}

const serializer = new PrometheusSerializer();

/** Every metric of the process, in Prometheus text with unit suffixes (prometheus-names.ts). */
export async function scrapeText(): Promise<string> {
  const { resourceMetrics } = await scrape().reader.collect();
  return serializer.serialize(withPrometheusUnits(resourceMetrics));
}
