/**
 * Comparing chain addresses (CONTRACT.md section 4, "Normalisation"): EVM addresses (0x + 40 hex)
 * are case-insensitive (the mixed case is only an EIP-55 checksum); every other chain's addresses
 * are compared exactly, because base58 (Solana, Tron) and strkey (Stellar) are case-sensitive.
 */

import { StrKey } from "@stellar/stellar-base";

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
/** A Stellar muxed account (SEP-23): `M` + 68 base32 characters, a `G…` account and a 64-bit id. */
const STELLAR_MUXED = /^M[A-Z2-7]{68}$/;

export const isEvmAddress = (address: string): boolean => EVM_ADDRESS.test(address);

export const normaliseAddress = (address: string): string =>
  isEvmAddress(address) ? address.toLowerCase() : address;

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
  if (!STELLAR_MUXED.test(address) || !StrKey.isValidMed25519PublicKey(address)) return address;
  return StrKey.encodeEd25519PublicKey(StrKey.decodeMed25519PublicKey(address).subarray(0, 32));
}
