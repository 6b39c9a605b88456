/**
 * What the custody API says of an asset, with the service account's token: its decimals (GetAsset;
 * GetVaultAsset for the vault-scoped assets the platform serves only through the vault, such as
 * imported tokens), and its USD price (`convertedValue`, BatchGetAssets for several at once). An
 * answer must name the asset asked about; decimals must be integers, else BAD_RESPONSE, never a
 * guess. A price that is absent, not a positive decimal or not in USD is no price (null).
 */
import { z } from "zod";
import { err, ok } from "../core/errors.js";
import type { CustodyGet } from "../addressbook/custody-http.js";
import { CustodyApiError, type CustodyOperation } from "../addressbook/errors.js";
import type { CustodyResult } from "../addressbook/custody-client.js";
import { canonicalAssetName } from "../core/chains/assets.js";
import { MAX_ASSET_DECIMALS } from "./decimals-pins.js";
import { usdPrice } from "../core/facts/usd-price.js";
const assetResponse = z.object({
  asset: z.object({
    name: z.string().nullish(),
    decimals: z.number().int().min(0).max(MAX_ASSET_DECIMALS).nullish(),
  }),
});

export type FetchDecimals = (asset: string, vault: string) => CustodyResult<number>;

export function createDecimalsFetcher(get: CustodyGet): FetchDecimals {
  return async (asset, vault) => {
    const id = encodeURIComponent(asset.replace(/^assets\//, ""));
    const global = await fetchOne(get, "GetAsset", asset, vault, `/v2/assets/${id}`);
    if (global.ok || global.error.code !== "NOT_FOUND") return global;
    const vaultId = encodeURIComponent(vault.replace(/^vaults\//, ""));
    return fetchOne(get, "GetVaultAsset", asset, vault, `/v2/vaults/${vaultId}/assets/${id}`);
  };
}

async function fetchOne(get: CustodyGet, operation: CustodyOperation, asset: string, vault: string, path: string): CustodyResult<number> {
  const answer = await get({ operation, vault, path, query: new URLSearchParams() });
  if (!answer.ok) return answer;
  const parsed = assetResponse.safeParse(answer.value);
  if (!parsed.success) return err(new CustodyApiError("BAD_RESPONSE", operation, vault, "the answer is not an asset with integer decimals"));
  const { name, decimals } = parsed.data.asset;
  // An answer about another asset (a proxy, an alias resolved elsewhere) says nothing about this one;
  // the case of an EVM contract address is only a checksum.
  if (name != null && canonicalAssetName(name) !== canonicalAssetName(asset)) return err(new CustodyApiError("INCONSISTENT", operation, vault, "the answer names another asset"));
  if (decimals == null) return err(new CustodyApiError("BAD_RESPONSE", operation, vault, "the asset has no decimals"));
  return ok(decimals);
}

/** For each asset asked: its USD price, or null when the platform answered without one (or does not know the asset). */
export type FetchPrices = (assets: readonly string[], vault: string) => CustodyResult<Map<string, string | null>>;

const pricedAsset = z.object({ name: z.string(), convertedValue: z.unknown().optional() });
const batchResponse = z.object({ assets: z.array(z.unknown()).nullish() });
const singleResponse = z.object({ asset: z.unknown() });

/** The price an asset answer states, in the canonical form of usdPrice; null unless it is a positive USD decimal. */
function priceOf(convertedValue: unknown): string | null {
  if (convertedValue === null || typeof convertedValue !== "object") return null;
  const { amount, currencyCode } = convertedValue as { amount?: unknown; currencyCode?: unknown };
  return currencyCode === "USD" ? usdPrice(amount) : null;
}

/**
 * One BatchGetAssets for every asset asked; an asset the batch leaves out is asked of GetVaultAsset
 * (an imported token is known only in its vault). An answer naming an asset not asked about is
 * ignored: it prices nothing countersign asked for. One naming an asset twice with two prices is
 * not believed: countersign never picks one of two figures about money.
 */
export function createPriceFetcher(get: CustodyGet): FetchPrices {
  return async (assets, vault) => {
    const wanted = new Map(assets.map((a) => [canonicalAssetName(a), a]));
    const query = new URLSearchParams(assets.map((a): [string, string] => ["names", a]));
    const batch = await get({ operation: "BatchGetAssets", vault, path: "/v2/assets:batchGet", query });
    if (!batch.ok && batch.error.code !== "NOT_FOUND") return batch;
    const prices = new Map<string, string | null>();
    if (batch.ok) {
      const parsed = batchResponse.safeParse(batch.value);
      if (!parsed.success) return err(new CustodyApiError("BAD_RESPONSE", "BatchGetAssets", vault, "the answer is not a list of assets"));
      for (const item of parsed.data.assets ?? []) {
        const asset = pricedAsset.safeParse(item);
        const asked = asset.success ? wanted.get(canonicalAssetName(asset.data.name)) : undefined;
        if (asked === undefined) continue;
        const price = priceOf(asset.data!.convertedValue);
        if (prices.has(asked) && prices.get(asked) !== price)
          return err(new CustodyApiError("INCONSISTENT", "BatchGetAssets", vault, "the answer prices one asset twice, differently"));
        prices.set(asked, price);
      }
    }
    for (const asset of assets.filter((a) => !prices.has(a))) {
      const single = await vaultAssetPrice(get, asset, vault);
      if (!single.ok) return single;
      prices.set(asset, single.value);
    }
    return ok(prices);
  };
}

async function vaultAssetPrice(get: CustodyGet, asset: string, vault: string): CustodyResult<string | null> {
  const id = encodeURIComponent(asset.replace(/^assets\//, ""));
  const vaultId = encodeURIComponent(vault.replace(/^vaults\//, ""));
  const answer = await get({ operation: "GetVaultAsset", vault, path: `/v2/vaults/${vaultId}/assets/${id}`, query: new URLSearchParams() });
  if (!answer.ok) return answer.error.code === "NOT_FOUND" ? ok(null) : answer;
  const parsed = singleResponse.safeParse(answer.value);
  const priced = parsed.success ? pricedAsset.safeParse(parsed.data.asset) : undefined;
  if (!priced?.success) return err(new CustodyApiError("BAD_RESPONSE", "GetVaultAsset", vault, "the answer is not an asset"));
  if (canonicalAssetName(priced.data.name) !== canonicalAssetName(asset)) return err(new CustodyApiError("INCONSISTENT", "GetVaultAsset", vault, "the answer names another asset"));
  return ok(priceOf(priced.data.convertedValue));
}
