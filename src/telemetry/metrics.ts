/**
 * countersign's metrics, through the OpenTelemetry API. They are always recorded: by the SDK's
 * MeterProvider when OTEL_* variables start it (and exported as they say), else by one holding
 * only the scrape reader of `GET /metrics` (scrape.ts). Instruments are made when the service
 * starts, from the meter provider global then.
 * Attributes are few and bounded (outcomes, causes, rule ids, vaults): never a transaction name.
 */
import { metrics } from "@opentelemetry/api";
import { ensureMeterProvider } from "./scrape.js";

export type DecisionOutcome = "allow" | "deny" | "defer" | "unavailable" | "refused";

/** Why a webhook answer was a 503: the bounded reason of `countersign.defers`. */
export type DeferCause =
  | "policy_rule"
  | "policy_default"
  | "address_book_stale"
  | "asset_decimals_unknown"
  | "source_wallet_unknown"
  | "lock_budget"
  | "price_unknown"
  | "clock_skew"
  | "policy_superseded"
  | "platform_unavailable"
  | "unavailable";

export interface DecisionMeasure {
  outcome: DecisionOutcome;
  replayed: boolean;
  /** From the request's arrival to the answer, in seconds. */
  seconds: number;
  /** Set for outcome defer and unavailable. */
  deferCause?: DeferCause;
  /** The first matched defer rule, for deferCause policy_rule. */
  deferRule?: string;
}

export interface VaultAge {
  /** `vaults/{id}` */
  vault: string;
  /** Seconds since the copy's last good sync; null when never synced (then nothing is reported). */
  ageSeconds: number | null;
}

export interface ServiceMetrics {
  /** A webhook answer: allow, deny, defer (recorded) or unavailable (not recorded). */
  decision(measure: DecisionMeasure): void;
  /** An event delivery refused for its signature. */
  eventSignatureRejected(): void;
  /** A webhook delivery the platform check refused (DELIVERY_MISMATCH, NOT_AWAITING_SIGNATURE). */
  deliveryRefused(code: string): void;
  /** A policy reload that took effect, or was refused (invalid, tests_failed, unreadable, unclaimed). */
  policyReload(result: "applied" | "refused", reason?: string): void;
  /** A vault's address-book sync: `ok`, or the failure's code (NETWORK, NOT_A_LIST, TOO_LARGE, …). */
  addressBookSync(vault: string, result: string): void;
  /** Reports each vault's address-book age when metrics are collected; returns the unsubscribe. */
  observeAddressBookAge(read: () => Promise<VaultAge[]>): () => void;
  /** Rows (expired buckets and charges) the background pruner deleted. */
  ledgerPruned(rows: number): void;
  /** A fresh decision the shadow candidate disagreed with, by the live outcome and the shadow's. */
  shadowDisagreement(outcomes: { live: string; shadow: string }): void;
  /** A shadow candidate refused at boot or at a reload (invalid, tests_failed, unreadable, unclaimed). */
  shadowLoadFailed(reason: string): void;
  /** Reports whether a shadow candidate is evaluated (1) or configured but off (0); returns the unsubscribe. */
  observeShadowLoaded(read: () => boolean): () => void;
  /** Reports the bundle in force (1, by version and digest) when metrics are collected; returns the unsubscribe. */
  observePolicyInForce(read: () => { version: string; digest: string }): () => void;
}

/** Decision latency buckets in seconds: a decision takes milliseconds; the co-signer waits up to 30 s. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function createServiceMetrics(): ServiceMetrics {
  ensureMeterProvider();
  const meter = metrics.getMeter("countersign");
  const decisions = meter.createCounter("countersign.decisions", {
    description: "Co-signer webhook answers by outcome",
  });
  const latency = meter.createHistogram("countersign.decision.duration", {
    description: "Time from a webhook request's arrival to its answer, by outcome",
    unit: "s",
    advice: { explicitBucketBoundaries: LATENCY_BUCKETS },
  });
  const defers = meter.createCounter("countersign.defers", {
    description: "Webhook answers that left the transaction pending (503), by reason",
  });
  const rejected = meter.createCounter("countersign.events.signature_rejected", {
    description: "Event deliveries refused because x-service-signature was missing or wrong",
  });
  // Any DELIVERY_MISMATCH means someone other than the co-signer holds the webhook token: alert on it.
  const refusals = meter.createCounter("countersign.delivery.refusals", {
    description: "Webhook deliveries refused because they are not what the custody platform holds, by code (DELIVERY_MISMATCH, NOT_AWAITING_SIGNATURE)",
  });
  const reloads = meter.createCounter("countersign.policy.reloads", {
    description: "Policy bundle reloads by result; a refused one says why (invalid, tests_failed, unreadable, unclaimed)",
  });
  const pruned = meter.createCounter("countersign.velocity.pruned_rows", {
    description: "Expired velocity buckets and charges deleted by the background pruner",
  });
  const syncs = meter.createCounter("countersign.address_book.syncs", {
    description: "Address-book syncs of each vault, by result: ok, or the failure's code",
  });
  const addressBookAge = meter.createObservableGauge("countersign.address_book.age", {
    description: "Seconds since each vault's address-book copy was last synced",
    unit: "s",
  });
  // One point per pod, whose attributes are the bundle it decides by: pods take a merged bundle one
  // by one, and one whose git-sync is stuck keeps the old one for good. Through the Service,
  // /v1/policy answers from any one pod; a scrape of every pod shows when they disagree
  // (count(count by (digest) (countersign_policy_in_force == 1)) > 1).
  const policyInForce = meter.createObservableGauge("countersign.policy.in_force", {
    description: "The policy bundle this process decides by: 1, with its version and digest (0 for one it decided by before a reload)",
  });
  const disagreements = meter.createCounter("countersign.shadow.disagreements", {
    description: "Fresh decisions the shadow candidate disagreed with, by live outcome and shadow outcome (allow, deny, defer, or error when it was not evaluated)",
  });
  const shadowFailures = meter.createCounter("countersign.shadow.load_failures", {
    description: "Shadow candidates (COUNTERSIGN_SHADOW_POLICIES) refused at boot or at a reload, by reason (invalid, tests_failed, unreadable, unclaimed)",
  });
  // A shadow is never answered, so a candidate that fails does not stop the service; this is how an
  // alert sees that the candidate someone is watching is not being evaluated.
  const shadowLoaded = meter.createObservableGauge("countersign.shadow.loaded", {
    description: "1 while the shadow candidate is evaluated beside the live bundle, 0 while it is configured but none could be loaded",
  });
  return {
    decision: (m) => {
      decisions.add(1, { outcome: m.outcome, replayed: m.replayed });
      latency.record(m.seconds, { outcome: m.outcome });
      if (m.deferCause) defers.add(1, { reason: m.deferCause, ...(m.deferRule ? { rule: m.deferRule } : {}) });
    },
    eventSignatureRejected: () => rejected.add(1),
    deliveryRefused: (code) => refusals.add(1, { code }),
    ledgerPruned: (rows) => pruned.add(rows),
    addressBookSync: (vault, result) => syncs.add(1, { vault, result }),
    policyReload: (result, reason) => reloads.add(1, reason ? { result, reason } : { result }),
    shadowDisagreement: ({ live, shadow }) => disagreements.add(1, { live, shadow }),
    shadowLoadFailed: (reason) => shadowFailures.add(1, { reason }),
    observeShadowLoaded: (read) => {
      const callback = (result: { observe(value: number): void }) => result.observe(read() ? 1 : 0);
      shadowLoaded.addCallback(callback);
      return () => shadowLoaded.removeCallback(callback);
    },
    observePolicyInForce: (read) => {
      // The SDK keeps exporting an attribute set it no longer sees at its last value, so a bundle
      // replaced by a reload is reported 0 from then on, never left at 1 beside its successor.
      const before = new Map<string, { version: string; digest: string }>();
      const callback = (result: { observe(value: number, attributes: { version: string; digest: string }): void }) => {
        const { version, digest } = read();
        const key = `${version}\u0000${digest}`;
        for (const [k, attributes] of before) if (k !== key) result.observe(0, attributes);
        result.observe(1, { version, digest });
        before.set(key, { version, digest });
      };
      policyInForce.addCallback(callback);
      return () => policyInForce.removeCallback(callback);
    },
    observeAddressBookAge: (read) => {
      const callback = async (result: { observe(value: number, attributes: { vault: string }): void }) => {
        // The ages come from the database; while it is down there is simply no sample.
        const ages = await read().catch(() => []);
        for (const { vault, ageSeconds } of ages) if (ageSeconds !== null) result.observe(ageSeconds, { vault });
      };
      addressBookAge.addCallback(callback);
      return () => addressBookAge.removeCallback(callback);
    },
  };
}
