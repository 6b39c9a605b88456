/**
 * An asset's decimals from the custody API (GetAsset; GetVaultAsset for the vault-scoped assets the
 * platform serves only through the vault, such as imported tokens), with the service account's
 * token. The answer must name the asset asked about and carry integer decimals; anything else is
 * BAD_RESPONSE, never a guess.
 */
import { z } from "zod";
import { err, ok } from "../core/errors.js";
import type { CustodyGet } from "../addressbook/custody-http.js";
import { CustodyApiError, type CustodyOperation } from "../addressbook/errors.js";
import type { CustodyResult } from "../addressbook/custody-client.js";
import { canonicalAssetName } from "../core/chains/assets.js";
import { MAX_ASSET_DECIMALS } from "./decimals-pins.js";

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
