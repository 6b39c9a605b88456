/**
 * Whether the standard OpenTelemetry variables ask for telemetry. Off by default: the SDK starts
 * only when an exporter or an OTLP endpoint is named, and never with OTEL_SDK_DISABLED=true.
 * OTEL_SERVICE_NAME or OTEL_RESOURCE_ATTRIBUTES alone name the service but send nothing anywhere,
 * so they do not start it (the SDK would otherwise export to localhost:4318 by default).
 */
const ENDPOINTS = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"] as const;
const EXPORTERS = ["OTEL_TRACES_EXPORTER", "OTEL_METRICS_EXPORTER"] as const;

const blank = (value: string | undefined): boolean => value === undefined || value.trim() === "";

/** The SDK's own reading of a boolean variable: only "true", in any case, is true. */
export function sdkDisabled(env: NodeJS.ProcessEnv): boolean {
  return env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true";
}

export function telemetryWanted(env: NodeJS.ProcessEnv): boolean {
  if (sdkDisabled(env)) return false;
  if (ENDPOINTS.some((k) => !blank(env[k]))) return true;
  return EXPORTERS.some((k) =>
    (env[k] ?? "")
      .split(",")
      .map((v) => v.trim())
      .some((v) => v !== "" && v !== "none"),
  );
}

/** The name every span and metric carries unless the operator gives one; the SDK's own is `unknown_service:node`. */
export const DEFAULT_SERVICE_NAME = "countersign";

/**
 * Sets OTEL_SERVICE_NAME to countersign before the SDK starts, unless OTEL_SERVICE_NAME or a
 * `service.name` in OTEL_RESOURCE_ATTRIBUTES names the service already (the SDK reads the name
 * only from there).
 */
export function nameTheService(env: NodeJS.ProcessEnv = process.env): void {
  if (!blank(env.OTEL_SERVICE_NAME)) return;
  const attributes = (env.OTEL_RESOURCE_ATTRIBUTES ?? "").split(",").map((pair) => pair.split("=")[0]?.trim());
  if (attributes.includes("service.name")) return;
  env.OTEL_SERVICE_NAME = DEFAULT_SERVICE_NAME;
}
