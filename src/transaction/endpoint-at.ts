/** Endpoints and assets read at a JSON path: a malformed one is a 400 naming the path. */
import { err, ok, type AppError, type Result } from "../errors.js";
import { networkFromAsset, networkId } from "./assets.js";
import { parseEndpoint } from "./endpoint.js";
import { invalidAt } from "./issues.js";
import { isAssetName, isStellarBareAsset } from "./resource-names.js";
import type { ShapeContext } from "./shape.js";
import type { Endpoint } from "./types.js";

export function endpointAt(value: string, path: string, ctx: Pick<ShapeContext, "vault">): Result<Endpoint, AppError> {
  const endpoint = parseEndpoint(value, ctx.vault);
  return endpoint === null
    ? err(invalidAt(path, "must be a wallet or wallet-address resource name, or a raw address"))
    : ok(endpoint);
}

/**
 * A transfer's asset: an asset resource name `assets/{asset_id}`; on a Stellar network also the
 * forms a Stellar operation writes (`native`, `CODE-ISSUER`, a contract `C…`).
 */
export function assetAt(value: string, path: string, network: string | null): Result<string, AppError> {
  if (isAssetName(value)) return ok(value);
  const stellar = network !== null && networkId(network).startsWith("stellar-");
  if (stellar && isStellarBareAsset(value)) return ok(value);
  return err(invalidAt(path, "must be an asset resource name assets/{asset_id}"));
}

/**
 * The asset of a Stellar operation: `native`, a classic `CODE-ISSUER`, a contract `C…`, or the
 * name of an asset on a Stellar network. Another chain's asset (`assets/native.ethereum-mainnet`)
 * in a Stellar payment would make the policy read a movement of ETH that the operation cannot make.
 */
export function stellarAssetAt(value: string, path: string): Result<string, AppError> {
  const stellarName = isAssetName(value) && (networkFromAsset(value)?.startsWith("stellar-") ?? false);
  return isStellarBareAsset(value) || stellarName
    ? ok(value)
    : err(invalidAt(path, "must be native, CODE-ISSUER, a contract address or the name of an asset on a Stellar network"));
}
