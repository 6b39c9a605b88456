/**
 * Stellar assets as a Stellar operation writes them: `native`, a classic `CODE-ISSUER`, or a
 * Soroban contract `C…`, beside the API's names for them (`assets/asset.stellar-mainnet.…`).
 */
import Big from "big.js";
import { err, ok, type AppError, type Result } from "../../errors.js";
import { invalidAt } from "../../transaction/issues.js";
import { isAssetName } from "../../transaction/resource-names.js";
import { networkFromAsset } from "../asset-ids.js";

/** A Soroban contract address (strkey: `C` + 55 base32 characters). */
export const STELLAR_CONTRACT = /^C[A-Z2-7]{55}$/;
/** A classic Stellar asset `CODE-ISSUER` (code 1–12 alphanumerics, issuer a `G…` account). */
export const STELLAR_CLASSIC = /^[A-Za-z0-9]{1,12}-G[A-Z2-7]{55}$/;
/** `native`, `CODE-ISSUER` or a contract `C…`, as an operation writes them (lengths loose: the decoder refuses the rest). */
const STELLAR_BARE_ASSET = /^(native|[A-Za-z0-9]{1,12}-G[A-Z2-7]{40,80}|C[A-Z2-7]{40,80})$/;
const LOOSE_CONTRACT = /^C[A-Z2-7]{40,80}$/;

/** 10^7 smallest units (stroops) per whole unit. */
export const STELLAR_DECIMALS = 7;
const STELLAR_UNIT = "10000000";

/** Exact decimals with a private configuration: never touch big.js's global settings. */
const Dec = Big();
Dec.strict = true;

export const STELLAR_NETWORK = /^stellar-/;
export const isStellarNetwork = (networkId: string): boolean => STELLAR_NETWORK.test(networkId);
export const isStellarBareAsset = (value: string): boolean => STELLAR_BARE_ASSET.test(value);

/** A Stellar classic payment's `rawAmount` (7 decimals) in whole units: `12345678` → `1.2345678`. */
export function stellarAmount(rawAmount: string): string {
  // Dividing an integer by 10^7 needs 7 decimal places at most: exact within big.js's 20.
  return new Dec(rawAmount).div(STELLAR_UNIT).toFixed();
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

/**
 * The asset of a classic `payment`: `native` or `CODE-ISSUER` (bare or as a Stellar asset name),
 * never a contract — the reference: "the classic asset and not a contract address". A SEP-41 token
 * moves by `sep41Payment`, and its decimals are not in the body: a "payment" of one would be read
 * at a classic asset's 7 decimals, a guess that can understate it.
 */
export function classicAssetAt(value: string, path: string): Result<string, AppError> {
  const asset = stellarAssetAt(value, path);
  if (!asset.ok) return asset;
  return LOOSE_CONTRACT.test(value.slice(value.lastIndexOf(".") + 1)) ? err(invalidAt(path, "must be a classic asset (native or CODE-ISSUER), not a contract")) : asset;
}
