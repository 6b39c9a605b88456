/**
 * XRP Ledger X-addresses (XLS-5d): one string holding a classic account (`r…`) and an optional
 * destination tag, which an exchange credits a deposit by, as a Stellar muxed address holds an
 * account and an id. The ledger pays the classic account either way, so a rule or a window that
 * knows the account must see its X-addresses. Decoded by ripple-address-codec, the XRP Ledger's own.
 */
import { decodeXAddress as decodeWithCodec, encodeAccountID, encodeXAddress } from "ripple-address-codec";
import { memoised } from "../codecs/memoised.js";

/** `X` on the main network, `T` on test networks; 35 bytes in 47 characters. */
const X_ADDRESS = /^[XT][rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz]{46}$/;

export interface XrplAccount {
  /** The classic address `r…`. */
  account: string;
  /** The destination tag as a decimal string, or null when the X-address carries none. */
  tag: string | null;
}

/**
 * The account and tag of an X-address, or null for any other text (a classic address included).
 * Memoised: a rule's list compares the same literals at every transfer. The answer is shared: not
 * to be changed.
 */
export const xrplXAddress = memoised(decodeXAddress);

function decodeXAddress(text: string): XrplAccount | null {
  if (!X_ADDRESS.test(text)) return null;
  const decoded = decodedOrNull(text);
  if (decoded === null) return null;
  // The codec reads a 32-bit tag and ignores the four bytes after it, which XLS-5d reserves for
  // 64-bit tags and requires zero: only the one spelling the codec writes for this account, tag
  // and network is read as them.
  if (encodeXAddress(decoded.accountId, decoded.tag, decoded.test) !== text) return null;
  return { account: encodeAccountID(decoded.accountId), tag: decoded.tag === false ? null : String(decoded.tag) };
}

function decodedOrNull(text: string): ReturnType<typeof decodeWithCodec> | null {
  try {
    return decodeWithCodec(text);
  } catch {
    return null;
  }
}

/** The valid X-addresses with a tag written anywhere in `text` (a rule's literal, a list in one string). */
export function xrplTaggedIn(text: string): string[] {
  return (text.match(/[XT][rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz]{46}/g) ?? []).filter((candidate) => xrplXAddress(candidate)?.tag != null);
}
