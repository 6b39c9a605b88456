/** Endpoints and assets read at a JSON path: a malformed one is a 400 naming the path. */
import { err, ok, type AppError, type Result } from "../errors.js";
import { isEvmAddress } from "../facts/addresses.js";
import { tonAccount } from "../facts/ton-address.js";
import { assetStandardOf, EVM_NETWORK, networkFromAsset, networkId } from "./assets.js";
import { parseEndpoint } from "./endpoint.js";
import { invalidAt } from "./issues.js";
import { isAssetName, isStellarBareAsset } from "./resource-names.js";
import type { ShapeContext } from "./shape.js";
import type { Endpoint } from "./types.js";

/**
 * `family`: the accounts of the network the transfer moves on (accountFamily): on an EVM network
 * a raw address is `0x` and 40 hex digits and nothing else, on Sui or Aptos `0x` and 64.
 */
export function endpointAt(value: string, path: string, ctx: Pick<ShapeContext, "vault">, family: AccountFamily = null): Result<Endpoint, AppError> {
  const endpoint = parseEndpoint(value, ctx.vault);
  if (endpoint === null) return err(invalidAt(path, "must be a wallet or wallet-address resource name, or a raw address"));
  if (endpoint.kind !== "address") return ok(endpoint);
  const issue =
    EVM_SPELT_OTHERWISE.test(value) || EVM_NAME_OR_URI.test(value)
      ? EVM_SPELLING
      : PAYMENT_URI.test(value)
        ? "an account must be written as its chain writes it, not as a payment URI"
        : family !== "evm" && HEX_ACCOUNT_SPELT_OTHERWISE.test(value)
        ? HEX32_SPELLING
        : misspeltAccount(value, family);
  if (issue !== null) return err(invalidAt(path, issue));
  return ok(endpoint);
}

/**
 * The network a transfer moves on, as the family patterns read it (`chain-net`): the network its
 * asset id names, else the transaction's. A chain named without its net (`assets/native.tron`) is
 * read as that chain's, so no family's spelling check is turned off by leaving the net out (found
 * by a review of this stop's changes: `0x…` passed as a Tron destination so).
 */
function familyKey(asset: string, network: string | null): string | null {
  const named = networkFromAsset(asset) ?? (network === null ? null : networkId(network).toLowerCase());
  return named === null || named.includes("-") ? named : `${named}-`;
}

/** Which accounts a transfer's network has, where their spelling is checked: EVM, Sui or Aptos (`hex32`), Substrate, Tron, Hedera, Solana, Bitcoin, TON, NEAR, or another. */
export type AccountFamily = "evm" | "hex32" | "substrate" | "tron" | "hedera" | "solana" | "bitcoin" | "ton" | "near" | null;

export function accountFamily(asset: string, network: string | null): AccountFamily {
  if (onEvmNetwork(asset, network)) return "evm";
  const named = familyKey(asset, network);
  if (named !== null && HEX_ACCOUNT_NETWORK.test(named)) return "hex32";
  if (named !== null && TRON_NETWORK.test(named)) return "tron";
  if (named !== null && HEDERA_NETWORK.test(named)) return "hedera";
  const listed = named === null ? undefined : NAMED_FAMILIES.find(([network]) => network.test(named));
  if (listed !== undefined) return listed[1];
  const substrateAsset = asset.toLowerCase().startsWith("assets/substrate.");
  return substrateAsset || (named !== null && SUBSTRATE_NETWORK.test(named)) ? "substrate" : null;
}

/**
 * Tron's networks, whose accounts rules, the address book and the windows know as base58 `T…` or
 * as `41` and the 20 bytes in hex (addresses.ts folds the two). Tron's virtual machine and some
 * clients also write an account as `0x` and the 20 bytes, which compared as an EVM address would
 * slip past a deny rule naming `T…` and open a window group of its own: refused, as any other
 * spelling there (found by a review of this stop's changes).
 */
const TRON_NETWORK = /^tron-/;
const TRON_ACCOUNT = /^(?:T[1-9A-HJ-NP-Za-km-z]{33}|41[0-9a-fA-F]{40})$/;

/**
 * Hedera's networks, whose accounts rules, the address book and the windows know as `0.0.N`. Its
 * SDKs and the network also take the same account as `0.0.N-abcde` (HIP-15: the id and a checksum
 * of the ledger, which the SDKs parse away), as its long-zero EVM address (`0x` and N in 40 hex
 * digits) or its EVM alias (`0x…`, or `0.0.` and the alias): a deny rule naming `0.0.12345` did not
 * see `0.0.12345-vfmkw` or `0x…3039`, which were signed, and each opened a window group of its own
 * (found by a review of account spellings). Only `shard.realm.num` in plain decimals is taken:
 * every other spelling is refused, never converted (an alias names no number the body shows).
 */
const HEDERA_NETWORK = /^hedera-/;
const HEDERA_ACCOUNT = /^(?:0|[1-9][0-9]*)\.(?:0|[1-9][0-9]*)\.(?:0|[1-9][0-9]*)$/;

/**
 * Solana, Bitcoin, TON and NEAR: each writes an account one way that rules, the address book and the
 * windows compare, while wallets and their libraries also pay other text to it: a name (an SNS
 * `treasury.sol`, a TON DNS `foundation.ton`), a payment URI (`bitcoin:bc1q…`, BIP-21; `ton://…`,
 * `ton:EQ…`), a NEAR account in capitals (NEAR accounts are lower case; a client may fold it). A
 * deny rule naming the account saw none of them: each was signed (found by a review of account
 * spellings). On these networks a raw account is only the chain's own spelling; every other is
 * refused, never resolved.
 */
const NAMED_FAMILIES: ReadonlyArray<readonly [RegExp, AccountFamily]> = [
  [/^solana-/, "solana"],
  [/^bitcoin-/, "bitcoin"],
  [/^ton-/, "ton"],
  [/^near-/, "near"],
];

/**
 * A Solana account as written: base58, 32 to 44 letters. Only the letters are checked, never the
 * key: what is refused is another kind of text (a name, a URI), not a typo the chain refuses.
 */
const SOLANA_ACCOUNT = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/**
 * A Bitcoin address as written: letters and digits only (Base58Check, or bech32 and bech32m), so
 * never a BIP-21 URI (`bitcoin:…`, `…?amount=`) or a name. The checksum is the chain's to refuse.
 */
const BITCOIN_ADDRESS = /^[A-Za-z0-9]+$/;

/**
 * A NEAR account id (nomicon, "Account ID"): 2 to 64 characters, lower-case letters, digits and
 * `-`, `_` inside parts separated by `.`; an implicit account (64 hex digits) and an Ethereum-style
 * one (`0x` and 40) are lower case too.
 */
const NEAR_ACCOUNT = /^(?=.{2,64}$)(?:(?:[a-z0-9]+[-_])*[a-z0-9]+\.)*(?:[a-z0-9]+[-_])*[a-z0-9]+$/;

/**
 * The relay chains' networks (and their test relays), whose accounts are SS58. Their clients
 * (polkadot-js) also take an account as its 32-byte public key in hex, but rules, the address book
 * and the windows compare SS58 (any prefix, ss58-address.ts) and a hex key as hex: a deny rule
 * naming the SS58 account would not see `0x…` and it would open a per-destination window group of
 * its own. Refused, never converted (found by a review of hostile bodies). A chain object's sender
 * may be the key: it is compared as the account (chain-senders.ts).
 */
const SUBSTRATE_NETWORK = /^(polkadot|kusama|westend|rococo|paseo|substrate)-/;

/**
 * Sui and Aptos accounts are 32 bytes, which their SDKs also take written short (`0xa` is `0x`,
 * 63 zeros and `a`), but rules, the address book and the windows compare `0x` and 64 digits: a
 * deny rule naming the account would not see `0xa`, and it would open a per-destination window
 * group of its own. Refused, never padded (found by a review of hostile bodies).
 */
const HEX_ACCOUNT_NETWORK = /^(sui|aptos)-/;
const HEX_ACCOUNT = /^0x[0-9a-fA-F]{64}$/;

const EVM_SPELLING = "an EVM address must be written 0x and 40 hex digits";
const HEX32_SPELLING = "a Sui or Aptos account must be written 0x and 64 hex digits";

/**
 * Why an account is not written as rules, the address book and the windows of its network's family
 * compare it, or null: on an EVM network `0x` and 40 hex digits, on Sui or Aptos `0x` and 64, on
 * Tron base58 `T…` or `41` and 20 bytes, on Substrate anything but a public key in hex (`0x` or
 * `0X` and 64 digits), on Hedera `0.0.N`, on Solana, Bitcoin, TON and NEAR the chain's own spelling
 * (never a name or a URI). For transfers' endpoints (endpointAt) and the accounts of authorizations and
 * token allowances (parse.ts).
 */
export function misspeltAccount(address: string, family: AccountFamily): string | null {
  if (family === "evm" && !isEvmAddress(address)) return EVM_SPELLING;
  if (family === "hex32" && !HEX_ACCOUNT.test(address)) return HEX32_SPELLING;
  if (family === "tron" && !TRON_ACCOUNT.test(address)) return "a Tron account must be written in base58 (T…) or as 41 and its 20 bytes in hex";
  if (family === "substrate" && /^0x[0-9a-f]{64}$/i.test(address)) return "a Substrate account must be written in SS58, not as its public key in hex";
  if (family === "hedera" && !HEDERA_ACCOUNT.test(address)) return "a Hedera account must be written shard.realm.num (0.0.12345), without a checksum or an EVM address";
  if (family === "solana" && !SOLANA_ACCOUNT.test(address)) return "a Solana account must be written in base58, not as a name or a URI";
  if (family === "bitcoin" && !BITCOIN_ADDRESS.test(address)) return "a Bitcoin address must be written in Base58Check or bech32, not as a URI or a name";
  if (family === "ton" && tonAccount(address) === null) return "a TON account must be written raw (0:…) or user-friendly (EQ…, UQ…), not as a name or a URI";
  if (family === "near" && !NEAR_ACCOUNT.test(address)) return "a NEAR account must be written as its account id, in lower case";
  return null;
}

/**
 * An EVM address spelt `0X…` or as its 40 hex digits alone. Clients such as go-ethereum read both
 * as the `0x` address, but rules, the address book and the windows compare only `0x…` without case
 * (CONTRACT.md section 4): a deny rule naming the address, its address-book entry and its
 * per-destination window would not see the other spellings. Refused, never guessed at: the
 * initiator writes `0x` (found by a review of aliasing).
 */
const EVM_SPELT_OTHERWISE = /^(0X)?[0-9a-fA-F]{40}$/;

/**
 * Ethereum's other ways to name an account: an ENS name (`….eth`), an ICAP (`XE` and its check
 * digits) and an EIP-681 URI (`ethereum:…`). No other chain writes an account so, and a client
 * resolves each to an `0x` account that a deny rule names by its hex: refused on every network,
 * also where the network is unknown (an opaque asset id and no `network`), where the EVM family's
 * check cannot apply (found by a review of this stop's changes).
 */
const EVM_NAME_OR_URI = /(?:\.eth$|^XE[0-9]{2}[0-9A-Z]{30,31}$|^ethereum:)/i;

/**
 * A wallet's payment URI (BIP-21 `bitcoin:…` and its kin, `solana:…`, `ton:…`, `web+stellar:…`):
 * no chain's account is written so, and a wallet pays the account it holds, which a deny rule names
 * as written. Refused on every network, also where the network is unknown and no family's check
 * applies (found by a review of account spellings). TON's raw `0:…` is no URI: a scheme begins with
 * a letter.
 */
const PAYMENT_URI = /^(?:bitcoin|litecoin|dogecoin|solana|ton|near|hedera|hbar|tron|cardano|algorand|web\+stellar|stellar|xrpl|ripple|xrp|polkadot|sui|aptos|cosmos):/i;

/**
 * Whether a transfer of `asset` moves on an EVM network: the network its asset id names, else the
 * transaction's, is one of the EVM family's, or the asset is an ERC-20 token. There an account is
 * `0x` and 40 hex digits; any other raw address — an ENS name (`treasury.eth`), 32 bytes of hex
 * whose last 20 are the account (go-ethereum's HexToAddress keeps those), an ICAP `XE…`, an
 * EIP-681 `ethereum:0x…` — is a spelling that a client may resolve to an account while rules, the
 * address book and the windows see other text: a deny rule naming `0x5290…` would not catch it,
 * and each spelling would open a per-destination window group of its own. Refused, never resolved
 * (found by a review of hostile bodies).
 */
function onEvmNetwork(asset: string, network: string | null): boolean {
  const named = familyKey(asset, network);
  return (named !== null && EVM_NETWORK.test(named)) || assetStandardOf(asset, named) === "erc20";
}

/**
 * A Sui or Aptos account (32 bytes) spelt `0X…`: their SDKs read it as the `0x` account, which rules,
 * the address book and the windows compare without case, but `0X…` was compared as written (found
 * by a review of this stop's changes). The 64 digits alone are not refused: a NEAR implicit
 * account is written so.
 */
const HEX_ACCOUNT_SPELT_OTHERWISE = /^0X[0-9a-fA-F]{64}$/;

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

const STELLAR_CONTRACT = /^C[A-Z2-7]{40,80}$/;

/**
 * The asset of a classic `payment`: `native` or `CODE-ISSUER` (bare or as a Stellar asset name),
 * never a contract — the reference: "the classic asset and not a contract address". A SEP-41 token
 * moves by `sep41Payment`, and its decimals are not in the body: a "payment" of one would be read
 * at a classic asset's 7 decimals, a guess that can understate it.
 */
export function classicAssetAt(value: string, path: string): Result<string, AppError> {
  const asset = stellarAssetAt(value, path);
  if (!asset.ok) return asset;
  return STELLAR_CONTRACT.test(value.slice(value.lastIndexOf(".") + 1))
    ? err(invalidAt(path, "must be a classic asset (native or CODE-ISSUER), not a contract"))
    : asset;
}
