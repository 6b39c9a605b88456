/**
 * A Tron address in hex: `41` and the account's 20 bytes, in either case. The API takes it wherever
 * it takes the base58 address (its Tron operations say so), so a deny rule or an address-book
 * entry naming `T…` must see it.
 */
import { base58CheckEncode } from "../codecs/base58.js";
import { memoised } from "../codecs/memoised.js";

export const TRON_HEX = /^41[0-9a-fA-F]{40}$/;

/** Base58Check of the 21 bytes, as Tron writes its addresses. */
export const tronBase58 = memoised((hex: string) => base58CheckEncode(Buffer.from(hex, "hex")));

/** The base58 address `T…` of a Tron hex address, or null for any other text. */
export const tronBase58Of = (address: string): string | null => (TRON_HEX.test(address) ? tronBase58(address) : null);
