/**
 * Where the Prometheus exporter (OTEL_METRICS_EXPORTER=prometheus) listens. The exporter's own
 * default is every interface, so a service kept to loopback by COUNTERSIGN_HOST still published
 * its metrics (vault ids, decision counts, defer reasons) on port 9464 to the whole network.
 * Unless OTEL_EXPORTER_PROMETHEUS_HOST says otherwise, the metrics listen where the service does.
 */

/** The host to give the exporter, or undefined when OTEL_EXPORTER_PROMETHEUS_HOST is set. */
export function prometheusHost(env: NodeJS.ProcessEnv): string | undefined {
  if (env.OTEL_EXPORTER_PROMETHEUS_HOST?.trim()) return undefined;
  // The service's default (src/config.ts); `[::1]` is written with brackets, listen() takes none.
  const host = env.COUNTERSIGN_HOST?.trim() || "127.0.0.1";
  return host.replace(/^\[(.*)\]$/, "$1");
}

/**
 * Sets OTEL_EXPORTER_PROMETHEUS_HOST before the SDK starts: the SDK builds the exporter from the
 * environment, and the exporter reads its host only from there.
 */
export function bindPrometheusToServiceHost(env: NodeJS.ProcessEnv = process.env): void {
  const host = prometheusHost(env);
  if (host !== undefined) env.OTEL_EXPORTER_PROMETHEUS_HOST = host;
}
