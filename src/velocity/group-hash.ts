/**
 * How the ledger names a group: the SHA-256 of its key. The key itself is opaque (built in
 * src/core/facts/group-keys.ts) and may be a few hundred bytes; its hash is a fixed 32 bytes for the
 * indexes, and its first 8 bytes are the group's advisory-lock id.
 */
import { createHash } from "node:crypto";

/** SHA-256 of the key's UTF-8 bytes, hex (sent to SQL as text and decoded there: portable to PGlite). */
export function groupHashHex(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/**
 * The 64-bit advisory-lock id of a group: the first 8 bytes of its hash as a signed bigint. Two
 * groups sharing an id (chance ~ n²/2⁶⁵) only serialise each other, which is harmless.
 */
export function groupLockId(key: string): bigint {
  return lockIdOfHash(groupHashHex(key));
}

/** groupLockId from the key's hash (groupHashHex), when the caller has it already. */
export function lockIdOfHash(hashHex: string): bigint {
  return BigInt.asIntN(64, BigInt(`0x${hashHex.slice(0, 16)}`));
}
