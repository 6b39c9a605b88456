/**
 * The decimals source of a configured service: the operator's pins, and the custody API with the
 * same service account as the address-book sync when COUNTERSIGN_API_URL is set. The API is asked
 * on the decision path (before any lock), so a slow answer is cut short: one retry, a 2 s timeout,
 * all inside the decision's own deadline.
 */
import { createCustodyGet } from "../addressbook/custody-http.js";
import { createServiceAccountTokenSource } from "../addressbook/service-account-token.js";
import type { Config } from "../config.js";
import { createDecimalsFetcher } from "./custody-assets.js";
import { createAssetDecimals, type AssetDecimals } from "./decimals.js";

const TIMEOUT_MS = 2_000;
const RETRY = { maxAttempts: 2, baseDelayMs: 100, maxDelayMs: 500 };

export function assetDecimalsFromConfig(config: Pick<Config, "custodyApi" | "assetDecimalsPins">, fetchFn?: typeof fetch): AssetDecimals {
  const api = config.custodyApi;
  if (api === undefined) return createAssetDecimals({ pins: config.assetDecimalsPins });
  const tokens = createServiceAccountTokenSource({ baseUrl: api.baseUrl, serviceAccountEmail: api.serviceAccountEmail, privateKeyPem: api.privateKeyPem });
  const get = createCustodyGet({ baseUrl: api.baseUrl, tokens, timeoutMs: TIMEOUT_MS, retry: RETRY, ...(fetchFn ? { fetch: fetchFn } : {}) });
  return createAssetDecimals({ pins: config.assetDecimalsPins, fetch: createDecimalsFetcher(get) });
}
