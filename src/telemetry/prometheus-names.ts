/**
 * Prometheus names for OpenTelemetry metrics. OTLP carries a metric's unit beside its name
 * (`countersign.decision.duration`, unit `s`); Prometheus expects it in the name
 * (`countersign_decision_duration_seconds`). The exporter of @opentelemetry/exporter-prometheus
 * 0.223 adds only `_total` to counters, so the unit suffix is added here, on the collected data,
 * and the instruments keep their OTLP names.
 */
import type { MetricData, ResourceMetrics } from "@opentelemetry/sdk-metrics";

/** UCUM units as OpenTelemetry writes them, in the words Prometheus names use. */
const PROMETHEUS_UNITS: Readonly<Record<string, string>> = {
  d: "days",
  h: "hours",
  min: "minutes",
  s: "seconds",
  ms: "milliseconds",
  us: "microseconds",
  ns: "nanoseconds",
  By: "bytes",
  KiBy: "kibibytes",
  MiBy: "mebibytes",
  "%": "percent",
  "1": "ratio",
};

/** The denominators of a rate (`By/s`), singular as Prometheus writes them (`bytes_per_second`). */
const PER_UNITS: Readonly<Record<string, string>> = { s: "second", min: "minute", h: "hour", d: "day" };

/**
 * The suffix a unit gives a Prometheus name, or undefined when it gives none: an annotation such as
 * `{decision}` names what is counted, not a unit, and a unit with no Prometheus word is left out
 * rather than guessed.
 */
export function prometheusUnit(unit: string): string | undefined {
  const bare = unit.replace(/\{[^}]*\}/g, "").trim();
  if (bare === "") return undefined;
  const [per, over] = bare.split("/");
  const word = PROMETHEUS_UNITS[per ?? ""];
  if (over === undefined) return word;
  const overWord = PER_UNITS[over];
  return word && overWord ? `${word}_per_${overWord}` : undefined;
}

function withUnitSuffix(metric: MetricData): MetricData {
  const suffix = prometheusUnit(metric.descriptor.unit);
  const { name } = metric.descriptor;
  const suffixed = suffix === undefined || name.endsWith(`.${suffix}`) || name.endsWith(`_${suffix}`) ? name : `${name}_${suffix}`;
  // The serializer writes the unit on a `# UNIT` line, which must match the name's suffix.
  return { ...metric, descriptor: { ...metric.descriptor, name: suffixed, unit: suffix ?? "" } };
}

/** The collected metrics with each name carrying its unit, for the Prometheus serializer. */
export function withPrometheusUnits(collected: ResourceMetrics): ResourceMetrics {
  return {
    ...collected,
    scopeMetrics: collected.scopeMetrics.map((scope) => ({ ...scope, metrics: scope.metrics.map(withUnitSuffix) })),
  };
}
