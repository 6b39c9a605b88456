/**
 * Base58 and Base58Check over any 58-letter alphabet: Bitcoin's (Tron, SS58) and the XRP Ledger's.
 * Address spellings are decoded to compare them (addresses.ts, ss58-address.ts, xrpl-address.ts),
 * never to build a transaction, so plain BigInt arithmetic is enough.
 */
import { createHash } from "node:crypto";

export const BITCOIN_ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
export const XRPL_ALPHABET = "rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz";

/** The bytes of `text`; each leading zero letter is a zero byte. `text` must be of `alphabet`. */
export function base58Decode(text: string, alphabet = BITCOIN_ALPHABET): Buffer {
  let n = 0n;
  for (const c of text) n = n * 58n + BigInt(alphabet.indexOf(c));
  const hex = n === 0n ? "" : n.toString(16);
  let zeros = 0;
  while (zeros < text.length && text[zeros] === alphabet[0]) zeros++;
  return Buffer.concat([Buffer.alloc(zeros), Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, "hex")]);
}

export function base58Encode(bytes: Buffer, alphabet = BITCOIN_ALPHABET): string {
  let n = bytes.length === 0 ? 0n : BigInt(`0x${bytes.toString("hex")}`);
  let text = "";
  while (n > 0n) {
    text = alphabet[Number(n % 58n)] + text;
    n /= 58n;
  }
  for (let i = 0; i < bytes.length && bytes[i] === 0; i++) text = `${alphabet[0]}${text}`;
  return text;
}

const sha256 = (bytes: Buffer): Buffer => createHash("sha256").update(bytes).digest();
const check = (payload: Buffer): Buffer => sha256(sha256(payload)).subarray(0, 4);

/** The payload and its four-byte double-SHA-256 check, in base58. */
export const base58CheckEncode = (payload: Buffer, alphabet = BITCOIN_ALPHABET): string => base58Encode(Buffer.concat([payload, check(payload)]), alphabet);

/** The payload of a Base58Check string, or null when its check fails. */
export function base58CheckDecode(text: string, alphabet = BITCOIN_ALPHABET): Buffer | null {
  const all = base58Decode(text, alphabet);
  if (all.length < 5) return null;
  const payload = all.subarray(0, -4);
  return check(payload).equals(all.subarray(-4)) ? payload : null;
}
