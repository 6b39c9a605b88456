/**
 * Base58 and Base58Check in Bitcoin's alphabet (Tron, SS58), from @scure/base (audited, with its
 * published vectors). A letter outside the alphabet (`0`, `O`, `I`, `l`, any other character) makes
 * the whole text undecodable: it is refused, never read as some other number. Address spellings are
 * decoded only to compare them (addresses.ts, ss58-address.ts), never to build a transaction.
 */
import { base58, createBase58check } from "@scure/base";
import { createHash } from "node:crypto";

const sha256 = (bytes: Uint8Array): Uint8Array => createHash("sha256").update(bytes).digest();
const base58check = createBase58check(sha256);

/** The bytes of `text` (each leading `1` a zero byte), or null when `text` is not base58. */
export function base58Decode(text: string): Uint8Array | null {
  try {
    return base58.decode(text);
  } catch {
    return null;
  }
}

export const base58Encode = (bytes: Uint8Array): string => base58.encode(bytes);

/** The payload and its four-byte double-SHA-256 check, in base58. */
export const base58CheckEncode = (payload: Uint8Array): string => base58check.encode(payload);
