/**
 * The decimals and prices sources of a configured service: the operator's pins, and the custody
 * API with the same service account as the address-book sync when COUNTERSIGN_API_URL is set. The
 * API is asked on the decision path (before any lock), so a slow answer is cut short: one retry, a
 * 2 s timeout, all inside the decision's own deadline.
 */
import { createCustodyGet, type CustodyGet } from "../addressbook/custody-http.js";
import { createServiceAccountTokenSource } from "../addressbook/service-account-token.js";
import type { Config } from "../config.js";
import type { Logger } from "../log.js";
import { createDecimalsFetcher, createPriceFetcher } from "./custody-assets.js";
import { createAssetDecimals, type AssetDecimals } from "./decimals.js";
import { createAssetPrices, type AssetPrices } from "./prices.js";

const TIMEOUT_MS = 2_000;
const RETRY = { maxAttempts: 2, baseDelayMs: 100, maxDelayMs: 500 };

function custodyGetFromConfig(config: Pick<Config, "custodyApi">, fetchFn?: typeof fetch): CustodyGet | undefined {
  const api = config.custodyApi;
  if (api === undefined) return undefined;
  const tokens = createServiceAccountTokenSource({ baseUrl: api.baseUrl, serviceAccountEmail: api.serviceAccountEmail, privateKeyPem: api.privateKeyPem });
  return createCustodyGet({ baseUrl: api.baseUrl, tokens, timeoutMs: TIMEOUT_MS, retry: RETRY, ...(fetchFn ? { fetch: fetchFn } : {}) });
}

export function assetDecimalsFromConfig(config: Pick<Config, "custodyApi" | "assetDecimalsPins">, fetchFn?: typeof fetch): AssetDecimals {
  const get = custodyGetFromConfig(config, fetchFn);
  return createAssetDecimals({ pins: config.assetDecimalsPins, ...(get ? { fetch: createDecimalsFetcher(get) } : {}) });
}

export function assetPricesFromConfig(config: Pick<Config, "custodyApi" | "assetPricePins" | "priceMaxAgeMs">, logger: Pick<Logger, "warn">): AssetPrices {
  const get = custodyGetFromConfig(config);
  return createAssetPrices({
    pins: config.assetPricePins,
    maxAgeMs: config.priceMaxAgeMs,
    ...(get ? { fetch: createPriceFetcher(get) } : {}),
    warn: (asset, platform, pin) =>
      logger.warn({ asset, platformPrice: platform, pinnedPrice: pin }, "the custody platform prices this asset: its price is used and the COUNTERSIGN_ASSET_PRICES pin ignored"),
  });
}
