/**
 * Stellar muxed accounts (SEP-23): `M` + 68 base32 characters, a `G…` account and a 64-bit id that
 * labels a sub-account off chain. The key that signs and the balance are the base account's.
 */
import { StrKey } from "@stellar/stellar-base";

const STELLAR_MUXED = /^M[A-Z2-7]{68}$/;

/** Whether `text` is a valid Stellar muxed address (`M…`). */
export const isStellarMuxed = (text: string): boolean => STELLAR_MUXED.test(text) && StrKey.isValidMed25519PublicKey(text);

/**
 * The account whose key signs for, and whose balance is, a Stellar muxed address `M…`: its base
 * `G…` account. Any other address as given. For what an address spends from and which group it
 * counts in — never for matching a trusted destination, which stays exact.
 */
export function stellarBaseAccount(address: string): string {
  if (!isStellarMuxed(address)) return address;
  return StrKey.encodeEd25519PublicKey(StrKey.decodeMed25519PublicKey(address).subarray(0, 32));
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

/** The valid Stellar muxed addresses written anywhere in `text` (a rule's literal, a list in one string). */
export function stellarMuxedIn(text: string): string[] {
  return (text.match(/M[A-Z2-7]{68}/g) ?? []).filter((candidate) => StrKey.isValidMed25519PublicKey(candidate));
}
