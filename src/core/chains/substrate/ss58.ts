/**
 * Substrate accounts in SS58 (Polkadot `1…`, Kusama, the generic `5…`): the same 32-byte account
 * written under each network's prefix. A chain pays the account whichever prefix the string
 * carries, so one account compares as its generic spelling. Base58 is @scure/base's (base58.ts);
 * the checksum is SS58's own, BLAKE2b from node:crypto.
 */
import { createHash } from "node:crypto";
import { base58Decode, base58Encode } from "../codecs/base58.js";
import { memoised } from "../codecs/memoised.js";

/** A 32-byte account with a one- or two-byte prefix and a two-byte checksum: 35 or 36 bytes. */
const SHAPE = /^[1-9A-HJ-NP-Za-km-z]{46,50}$/;
const GENERIC_PREFIX = 42;

/** The account in the generic format (`5…`), or null when `text` is no SS58 account address. */
export const substrateAccount = memoised(decodeAccount);

function decodeAccount(text: string): string | null {
  const bytes = SHAPE.test(text) ? base58Decode(text) : null;
  if (bytes === null) return null;
  // A prefix below 64 takes one byte; 64 to 16383 take two, the first with bit 6 set.
  const prefixLength = bytes[0]! < 64 ? 1 : bytes[0]! < 128 ? 2 : 0;
  if (prefixLength === 0 || bytes.length !== prefixLength + 34) return null;
  const data = bytes.subarray(0, prefixLength + 32);
  if (!checksum(data).equals(bytes.subarray(prefixLength + 32))) return null;
  return genericAccount(data.subarray(prefixLength));
}

/**
 * The generic SS58 account (`5…`) of a 32-byte public key written `0x` and 64 hex digits, as the
 * API writes `substrateTransaction.fromAddress`; null for any other text.
 */
export function substrateAccountOfKey(hex: string): string | null {
  if (!/^0x[0-9a-fA-F]{64}$/.test(hex)) return null;
  return genericAccount(Buffer.from(hex.slice(2), "hex"));
}

function genericAccount(publicKey: Uint8Array): string {
  const generic = Buffer.concat([Buffer.from([GENERIC_PREFIX]), publicKey]);
  return base58Encode(Buffer.concat([generic, checksum(generic)]));
}

/** SS58's checksum: the first two bytes of BLAKE2b-512 over "SS58PRE" and the data. */
const checksum = (data: Uint8Array): Buffer =>
  createHash("blake2b512")
    .update(Buffer.concat([Buffer.from("SS58PRE"), data]))
    .digest()
    .subarray(0, 2);
