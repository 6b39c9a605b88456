/**
 * Comparing chain addresses (CONTRACT.md section 4, "Normalisation"): EVM addresses (0x + 40 hex)
 * and Sui or Aptos accounts (0x + 64 hex) are case-insensitive (the mixed case is only an EIP-55 checksum), and so is a Bitcoin segwit
 * address written all in capitals (BIP-173 allows that spelling for QR codes; it is the same
 * address as the lower-case one), and any other bech32 address in one case (Litecoin's `ltc1…`,
 * a Cosmos chain's), known by its checksum. A TON account is one whichever way it is spelt
 * (ton-address.ts), and an XRP Ledger X-address without a tag is its classic account
 * (xrpl-address.ts); one with a tag, like a Stellar muxed address, names a sub-account. A
 * Substrate account is its generic SS58 spelling whatever its network prefix (ss58-address.ts). A Tron address written in hex (`41` and the account's 20 bytes,
 * which the API takes beside base58) is its base58 address `T…`. Every other chain's addresses are
 * compared exactly, because base58 (Bitcoin legacy, Solana, Tron) and strkey (Stellar) are
 * case-sensitive.
 */

import { StrKey } from "@stellar/stellar-base";
import { base58CheckEncode } from "./base58.js";
import { isOneCaseBech32 } from "./bech32.js";
import { memoised } from "./memoised.js";
import { substrateAccount } from "./ss58-address.js";
import { tonAccount } from "./ton-address.js";
import { xrplXAddress } from "./xrpl-address.js";

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/**
 * `0x` and 32 bytes of hex: a Sui or Aptos account. Hex has no case, so either case is the same
 * account (found by a review of aliasing: a deny rule naming one let the other through).
 */
const HEX_ACCOUNT = /^0x[0-9a-fA-F]{64}$/;
/** A Stellar muxed account (SEP-23): `M` + 68 base32 characters, a `G…` account and a 64-bit id. */
const STELLAR_MUXED = /^M[A-Z2-7]{68}$/;

/** A Bitcoin segwit address (bech32/bech32m, BIP-173/350), in one case: mixed case is invalid. */
const BECH32_LOWER = /^(?:bc|tb|bcrt)1[02-9ac-hj-np-z]{8,87}$/;
const BECH32_UPPER = /^(?:BC|TB|BCRT)1[02-9AC-HJ-NP-Z]{8,87}$/;

/**
 * A Tron address in hex: `41` and the account's 20 bytes, in either case. The API takes it wherever
 * it takes the base58 address (its Tron operations say so), so a deny rule or an address-book
 * entry naming `T…` must see it (found by a review of aliasing).
 */
const TRON_HEX = /^41[0-9a-fA-F]{40}$/;

export const isEvmAddress = (address: string): boolean => EVM_ADDRESS.test(address);

/**
 * Whether `address`'s letter case carries no meaning: an EVM, a one-case segwit or bech32, a Tron
 * hex, or a 32-byte hex (Sui, Aptos) address. Bech32 of any prefix, not Bitcoin's alone (found by a review of aliasing: a
 * deny rule naming `ltc1…` let `LTC1…` through).
 */
export const isCaseFreeAddress = (address: string): boolean =>
  EVM_ADDRESS.test(address) || BECH32_LOWER.test(address) || BECH32_UPPER.test(address) || TRON_HEX.test(address) || HEX_ACCOUNT.test(address) || isOneCaseBech32(address);

export const normaliseAddress = (address: string): string => {
  if (TRON_HEX.test(address)) return tronBase58(address);
  const ton = tonAccount(address);
  if (ton !== null) return ton;
  const xrpl = xrplXAddress(address);
  if (xrpl !== null && xrpl.tag === null) return xrpl.account;
  if (xrpl === null) {
    const substrate = substrateAccount(address);
    if (substrate !== null) return substrate;
  }
  return isCaseFreeAddress(address) ? address.toLowerCase() : address;
};

/** The base58 address `T…` of a Tron hex address, or null for any other text. */
export const tronBase58Of = (address: string): string | null => (TRON_HEX.test(address) ? tronBase58(address) : null);

/** Base58Check of the 21 bytes, as Tron writes its addresses. */
const tronBase58 = memoised((hex: string) => base58CheckEncode(Buffer.from(hex, "hex")));

export const sameAddress = (a: string, b: string): boolean => normaliseAddress(a) === normaliseAddress(b);

/** `ethereum-mainnet` whether or not it was written `networks/ethereum-mainnet`. */
export const bareNetwork = (network: string): string =>
  network.startsWith("networks/") ? network.slice("networks/".length) : network;

/**
 * The account whose key signs for, and whose balance is, a Stellar muxed address `M…`: its base
 * `G…` account (the id only labels a sub-account off chain). Any other address as given. For what
 * an address spends from and which group it counts in — never for matching a trusted destination,
 * which stays exact.
 */
export function stellarBaseAccount(address: string): string {
  if (!isStellarMuxed(address)) return address;
  return StrKey.encodeEd25519PublicKey(StrKey.decodeMed25519PublicKey(address).subarray(0, 32));
}

/**
 * The account an address pays into, for the groups it counts in: a Stellar muxed address's `G…`
 * account, an XRP X-address's classic `r…` account (each tag would be a group of its own), any
 * other address as given. Never for matching a trusted destination, which stays exact.
 */
export function baseAccount(address: string): string {
  return xrplXAddress(address)?.account ?? stellarBaseAccount(address);
}

/**
 * The sub-account id of a Stellar muxed address `M…` (SEP-23: its last 8 bytes, big-endian), as a
 * decimal string; null for any other address. An exchange credits a payment to a muxed address by
 * this id, whatever memo the transaction carries.
 */
export function stellarMuxedId(address: string): string | null {
  if (!isStellarMuxed(address)) return null;
  return StrKey.decodeMed25519PublicKey(address).readBigUInt64BE(32).toString();
}

/**
 * The sub-account an address names on its account: a Stellar muxed address's id, or an XRP
 * X-address's tag, as a decimal string; null for any other address. A rule naming the account
 * catches both, so a rule that trusts an exchange pins this (found by a review of aliasing).
 */
export const subAccountId = (address: string): string | null => stellarMuxedId(address) ?? xrplXAddress(address)?.tag ?? null;

/** Whether `text` is a valid Stellar muxed address (`M…`). */
const isStellarMuxed = (text: string): boolean => STELLAR_MUXED.test(text) && StrKey.isValidMed25519PublicKey(text);

/** The valid Stellar muxed addresses written anywhere in `text` (a rule's literal, a list in one string). */
export function stellarMuxedIn(text: string): string[] {
  return (text.match(/M[A-Z2-7]{68}/g) ?? []).filter((candidate) => StrKey.isValidMed25519PublicKey(candidate));
}
