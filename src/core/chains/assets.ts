/**
 * What an asset id says about itself: its network and its token standard. Asset ids are
 * `assets/{standard}.{network}[.{contract}]` (custody API "Resource names"); a bare Stellar
 * `CODE-ISSUER` or contract `C…` comes from a Stellar operation and takes the Stellar network.
 */
import { err, ok, type AppError, type Result } from "../errors.js";
import { invalidAt } from "../transaction/issues.js";
import { isAssetName } from "../transaction/resource-names.js";
import type { AssetStandard } from "../transaction/types.js";
import { assetIdParts } from "./asset-ids.js";
import { isChainNetwork, networkId } from "./networks.js";
import { isStellarBareAsset, isStellarNetwork, STELLAR_CLASSIC, STELLAR_CONTRACT } from "./stellar/assets.js";
import { tonBounceable } from "./ton/address.js";
import { tronBase58Of } from "./tron/hex.js";

export { isChainNetwork, networkId } from "./networks.js";
export { networkFromAsset } from "./asset-ids.js";

/**
 * The standard named by an `assets/…` id's prefix; `other` when it names none countersign knows. A
 * bare Stellar asset (`native`, `CODE-ISSUER`, a contract `C…`) on a Stellar `network` is the asset a
 * Stellar operation of that spelling moves, with the operation's standard: so its identity (and every
 * velocity group keyed by it) is the same whichever shape lists the transfer.
 */
export function assetStandardOf(asset: string, network: string | null = null): AssetStandard {
  if (network !== null && networkId(network).startsWith("stellar-")) {
    if (asset === "native" || STELLAR_CLASSIC.test(asset)) return "stellarClassic";
    if (STELLAR_CONTRACT.test(asset)) return "sep41";
  }
  const parts = assetIdParts(asset);
  // The standard without case, as the asset's identity reads it: `NATIVE` is native, `ERC20` erc20.
  const prefix = parts?.[0]?.toLowerCase();
  if (parts === null || prefix === undefined || parts.length < 2) return "other";
  if (prefix === "native" && parts.length === 2) return "native";
  if (prefix === "erc20") return "erc20";
  // The API spells Solana tokens `spl`, `spl-token` and `spl-token-2022`.
  if (prefix === "spl" || prefix === "spl-token" || prefix === "spl-token-2022") return "spl";
  // Stellar assets as the API references them: `assets/asset.stellar-mainnet.{CODE-ISSUER | C…}`.
  const last = parts.slice(2).join(".");
  if (prefix === "asset" && parts[1]?.toLowerCase().startsWith("stellar-")) {
    if (STELLAR_CONTRACT.test(last)) return "sep41";
    if (STELLAR_CLASSIC.test(last)) return "stellarClassic";
  }
  return "other";
}

/** A Tron network id (`tron-mainnet`, `tron-nile`), or the chain named without its net. */
const TRON_NETWORK_ID = /^tron(-|$)/i;
/** A TON network id (`ton-mainnet`, `ton-testnet`), or the chain named without its net. */
const TON_NETWORK_ID = /^ton(-|$)/i;

const EVM_CONTRACT_SUFFIX = /\.0x[0-9a-fA-F]{40}$/;
/** An EVM contract as an asset id's last part, with or without its `0x` (in either case). */
const EVM_CONTRACT = /^(0x)?[0-9a-f]{40}$/i;

/** An `assets/…` name with its EVM contract part lower-cased: its case is only a checksum. */
export const canonicalAssetName = (asset: string): string => asset.replace(EVM_CONTRACT_SUFFIX, (contract) => contract.toLowerCase());

/** The API's names for a Solana token's program; a mint belongs to one, so the mint names the token. */
const SOLANA_TOKEN_PREFIXES = new Set(["spl", "spl-token", "spl-token-2022"]);

/** Standards an asset id may name: those assetStandardOf reads, and other chains'. */
const KNOWN_STANDARDS = new Set(["native", "erc20", "asset", ...SOLANA_TOKEN_PREFIXES, "trc20", "trc10", "jetton", "coin", "fa", "aleo", "substrate", "sui", "ton"]);
/**
 * Whether an `assets/…` id is opaque: it says nothing of which asset it is (`assets/e72ff35a5b15`),
 * or its standard is none known and its "network" is not one (`assets/e72ff35a5b15.x`).
 */
export const isOpaqueAssetId = (asset: string): boolean => {
  const parts = assetIdParts(asset);
  if (parts === null) return false;
  const [standard = "", network = ""] = parts;
  if (parts.length < 2) return true;
  return !KNOWN_STANDARDS.has(standard.toLowerCase()) && !isChainNetwork(network);
};

/**
 * One identity per asset, whichever way a body spells it: the `assets/…` name with its standard and
 * network lower-cased, a Solana token under one prefix (`spl-token`, the OpenAPI's; the reference
 * writes `spl`), an EVM contract part lower-cased (its case is only a checksum), a Tron contract
 * in hex (`41…`) as its base58 address (`T…`), a jetton's master in any TON spelling as its
 * bounceable `EQ…`; and a bare
 * Stellar asset from a Stellar operation qualified with its network the way the API names it
 * (`assets/asset.stellar-mainnet.CODE-ISSUER`, `assets/native.stellar-mainnet`): a testnet asset is
 * not the mainnet one. An opaque id stays as it is: nothing says which asset it is
 * (src/decision/opaque-asset.ts).
 */
export function assetIdentity(asset: string, assetStandard: AssetStandard, network: string | null): string {
  if (asset.startsWith("assets/")) return structuredIdentity(asset);
  const stellar = assetStandard === "stellarClassic" || assetStandard === "sep41";
  if (!stellar || network === null) return asset;
  const id = networkId(network);
  return structuredIdentity(asset === "native" ? `assets/native.${id}` : `assets/asset.${id}.${asset}`);
}

/** An `assets/…` name's identity (see assetIdentity); an opaque id, or any other text, as it is. */
export function structuredIdentity(asset: string): string {
  const parts = assetIdParts(asset);
  if (parts === null || parts.length < 2) return asset;
  const [standard = "", network = "", ...rest] = parts;
  const prefix = SOLANA_TOKEN_PREFIXES.has(standard.toLowerCase()) ? "spl-token" : standard.toLowerCase();
  // An EVM contract is 20 bytes of hex: `0X` or no prefix at all spell the same contract.
  const last = rest.length === 1 ? rest[0]! : "";
  const evm = EVM_CONTRACT.test(last) && (prefix === "erc20" || /^0x/i.test(last));
  // A Tron contract in hex (`41…`, either case) is its base58 address `T…`, as the custody API takes
  // both and the endpoints already compare them so: compared as written, USDT in hex would miss a
  // limit naming `TR7N…` and have a daily window of its own.
  const tron = !evm && (prefix === "trc20" || TRON_NETWORK_ID.test(network)) ? tronBase58Of(last) : null;
  // A jetton's master is one TON account in every spelling (raw `0:…`, bounceable `EQ…`,
  // non-bounceable `UQ…`), as the endpoints already compare it: as written, a limit naming `EQ…`
  // missed `UQ…` and each had a window of its own. Read as the platform writes it, `EQ…`.
  const ton = !evm && tron === null && (prefix === "jetton" || TON_NETWORK_ID.test(network)) ? tonBounceable(last) : null;
  const contract = evm ? [`0x${last.replace(/^0x/i, "").toLowerCase()}`] : tron !== null ? [tron] : ton !== null ? [ton] : rest;
  return canonicalAssetName(["assets/" + prefix, network.toLowerCase(), ...contract].join("."));
}

/**
 * A transfer's asset: an asset resource name `assets/{asset_id}`; on a Stellar network also the
 * forms a Stellar operation writes (`native`, `CODE-ISSUER`, a contract `C…`).
 */
export function assetAt(value: string, path: string, network: string | null): Result<string, AppError> {
  if (isAssetName(value)) return ok(value);
  const stellar = network !== null && isStellarNetwork(networkId(network));
  if (stellar && isStellarBareAsset(value)) return ok(value);
  return err(invalidAt(path, "must be an asset resource name assets/{asset_id}"));
}
