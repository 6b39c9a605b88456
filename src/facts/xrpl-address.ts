/**
 * XRP Ledger X-addresses (XLS-5d): one string holding a classic account (`r…`) and an optional
 * destination tag, which an exchange credits a deposit by, as a Stellar muxed address holds an
 * account and an id. The ledger pays the classic account either way, so a rule or a window that
 * knows the account must see its X-addresses (found by a review of aliasing: a deny rule naming
 * `r…` let `X…` through, and each tag opened a window group of its own).
 */
import { base58CheckDecode, base58CheckEncode, XRPL_ALPHABET } from "./base58.js";
import { memoised } from "./memoised.js";

/** `X` on the main network, `T` on test networks; 35 bytes in 47 characters. */
const X_ADDRESS = /^[XT][rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz]{46}$/;
const MAIN_PREFIX = "0544";
const TEST_PREFIX = "0493";

export interface XrplAccount {
  /** The classic address `r…`. */
  account: string;
  /** The destination tag as a decimal string, or null when the X-address carries none. */
  tag: string | null;
}

/**
 * The account and tag of an X-address, or null for any other text (a classic address included).
 * Memoised, as the other spellings' decodings are: a rule's list compares the same literals at
 * every transfer (found by a review of this stop's changes). The answer is shared: not to be changed.
 */
export const xrplXAddress = memoised(decodeXAddress);

function decodeXAddress(text: string): XrplAccount | null {
  if (!X_ADDRESS.test(text)) return null;
  const payload = base58CheckDecode(text, XRPL_ALPHABET);
  if (payload === null || payload.length !== 31) return null;
  const prefix = payload.subarray(0, 2).toString("hex");
  if (prefix !== MAIN_PREFIX && prefix !== TEST_PREFIX) return null;
  const flag = payload[22];
  // A tag is 32 bits: the upper four bytes are zero, and all eight are when there is no tag.
  if (payload.readUInt32LE(27) !== 0 || (flag !== 0 && flag !== 1) || (flag === 0 && payload.readUInt32LE(23) !== 0)) return null;
  return {
    account: base58CheckEncode(Buffer.concat([Buffer.from([0]), payload.subarray(2, 22)]), XRPL_ALPHABET),
    tag: flag === 1 ? String(payload.readUInt32LE(23)) : null,
  };
}

/** The valid X-addresses with a tag written anywhere in `text` (a rule's literal, a list in one string). */
export function xrplTaggedIn(text: string): string[] {
  return (text.match(/[XT][rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz]{46}/g) ?? []).filter((candidate) => xrplXAddress(candidate)?.tag != null);
}
