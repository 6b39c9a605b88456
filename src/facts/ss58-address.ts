/**
 * Substrate accounts in SS58 (Polkadot `1…`, Kusama, the generic `5…`): the same 32-byte account
 * written under each network's prefix. A chain pays the account whichever prefix the string
 * carries, so one account compares as its generic spelling (found by a review of aliasing: a deny
 * rule naming the Polkadot spelling let the generic or Kusama one through, and each spelling had a
 * window of its own).
 */
import { createHash } from "node:crypto";
import { base58Decode, base58Encode } from "./base58.js";
import { memoised } from "./memoised.js";

/** A 32-byte account with a one- or two-byte prefix and a two-byte checksum: 35 or 36 bytes. */
const SHAPE = /^[1-9A-HJ-NP-Za-km-z]{46,50}$/;
const GENERIC_PREFIX = 42;

/** The account in the generic format (`5…`), or null when `text` is no SS58 account address. */
export const substrateAccount = memoised(decodeAccount);

function decodeAccount(text: string): string | null {
  if (!SHAPE.test(text)) return null;
  const bytes = base58Decode(text);
  // A prefix below 64 takes one byte; 64 to 16383 take two, the first with bit 6 set.
  const prefixLength = bytes[0]! < 64 ? 1 : bytes[0]! < 128 ? 2 : 0;
  if (prefixLength === 0 || bytes.length !== prefixLength + 34) return null;
  const data = bytes.subarray(0, prefixLength + 32);
  if (!checksum(data).equals(bytes.subarray(prefixLength + 32))) return null;
  const generic = Buffer.concat([Buffer.from([GENERIC_PREFIX]), data.subarray(prefixLength)]);
  return base58Encode(Buffer.concat([generic, checksum(generic)]));
}

/**
 * The generic SS58 account (`5…`) of a 32-byte public key written `0x` and 64 hex digits, as the
 * API writes `substrateTransaction.fromAddress`; null for any other text.
 */
export function substrateAccountOfKey(hex: string): string | null {
  if (!/^0x[0-9a-fA-F]{64}$/.test(hex)) return null;
  const generic = Buffer.concat([Buffer.from([GENERIC_PREFIX]), Buffer.from(hex.slice(2), "hex")]);
  return base58Encode(Buffer.concat([generic, checksum(generic)]));
}

/** SS58's checksum: the first two bytes of BLAKE2b-512 over "SS58PRE" and the data. */
const checksum = (data: Buffer): Buffer => createHash("blake2b512").update(Buffer.concat([Buffer.from("SS58PRE"), data])).digest().subarray(0, 2);
