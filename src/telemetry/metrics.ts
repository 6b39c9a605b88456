/**
 * countersign's metrics, through the OpenTelemetry API. Without an SDK registered (tests, a plain
 * `npm start`) the API is a no-op and so is every count here; with one (`node --import` of an
 * instrumentation file, OTEL_* variables) they are exported like any other metric. Instruments are
 * made when the service starts, from whatever meter provider is global then.
 */
import { metrics } from "@opentelemetry/api";

export interface ServiceMetrics {
  /** A webhook answer: allow, deny, defer (recorded) or unavailable (not recorded). */
  decision(outcome: "allow" | "deny" | "defer" | "unavailable", replayed: boolean): void;
  /** An event delivery refused for its signature. */
  eventSignatureRejected(): void;
  /** A policy reload that took effect, or was refused (invalid, tests_failed, unreadable). */
  policyReload(result: "applied" | "refused", reason?: string): void;
}

export function createServiceMetrics(): ServiceMetrics {
  const meter = metrics.getMeter("countersign");
  const decisions = meter.createCounter("countersign.decisions", {
    description: "Co-signer webhook answers by outcome",
  });
  const rejected = meter.createCounter("countersign.events.signature_rejected", {
    description: "Event deliveries refused because x-service-signature was missing or wrong",
  });
  const reloads = meter.createCounter("countersign.policy.reloads", {
    description: "Policy bundle reloads by result; a refused one says why (invalid, tests_failed, unreadable)",
  });
  return {
    decision: (outcome, replayed) => decisions.add(1, { outcome, replayed }),
    eventSignatureRejected: () => rejected.add(1),
    policyReload: (result, reason) => reloads.add(1, reason ? { result, reason } : { result }),
  };
}
