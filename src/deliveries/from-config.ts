/**
 * The platform check of a configured service (COUNTERSIGN_VERIFY_DELIVERIES=platform), with the same
 * service account as the address-book sync. It runs on the decision path before any lock, so a slow
 * answer is cut short: an attempt waits at most 2 s, retries back off exponentially, and neither
 * goes past the check's share of the decision's deadline (check.ts).
 */
import { createCustodyGet } from "../addressbook/custody-http.js";
import { createServiceAccountTokenSource } from "../addressbook/service-account-token.js";
import type { Config } from "../config.js";
import { createCircuit, DEFAULT_CIRCUIT } from "./circuit.js";
import { createDeliveryCheck, type DeliveryCheck, type DeliveryCheckOptions } from "./check.js";
import { createPlatformCopyReader } from "./platform-copy.js";

const TIMEOUT_MS = 2_000;
const RETRY = { maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1_000 };

export function deliveryCheckFromConfig(
  config: Pick<Config, "custodyApi" | "verifyDeliveries">,
  options: Omit<DeliveryCheckOptions, "read" | "circuit">,
): DeliveryCheck | undefined {
  const api = config.custodyApi;
  if (config.verifyDeliveries !== "platform" || api === undefined) return undefined;
  const tokens = createServiceAccountTokenSource({ baseUrl: api.baseUrl, serviceAccountEmail: api.serviceAccountEmail, privateKeyPem: api.privateKeyPem });
  const get = createCustodyGet({ baseUrl: api.baseUrl, tokens, timeoutMs: TIMEOUT_MS, retry: RETRY });
  return createDeliveryCheck({ ...options, read: createPlatformCopyReader(get), circuit: createCircuit(DEFAULT_CIRCUIT) });
}
