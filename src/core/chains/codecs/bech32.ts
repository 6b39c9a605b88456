/**
 * Whether a string is a bech32 or bech32m string (BIP-173, BIP-350) in one case, whatever its
 * human-readable prefix: Bitcoin's `bc1…`, Litecoin's `ltc1…`, a Cosmos chain's `cosmos1…`, a
 * Cardano address (`addr1…`, `addr_test1…`). BIP-173 makes such a string in capitals the same as
 * in lower case (and mixed case invalid), so the checksum, not the prefix, says which strings may be
 * read without case. The checksum and the case rule are @scure/base's (audited): it refuses a
 * character that only becomes a bech32 letter once lowered (the Kelvin sign `K` lowers to `k`).
 */
import { bech32, bech32m } from "@scure/base";
import { memoised } from "./memoised.js";

/**
 * The prefixes chains write (letters, digits, `_`), the separator and at least the 6 checksum
 * characters. BIP-173 bounds a segwit address to 90 characters, but the code is defined up to 1023
 * and other chains write longer strings: a Cardano base address is 103 (`addr1…`), a testnet one
 * 108 with an `_` in its prefix (`addr_test1…`, CIP-5).
 */
const SHAPE = /^([a-z0-9_]{1,83})1([qpzry9x8gf2tvdw0s3jn54khce6mua7l]{6,})$/;
const MAX_LENGTH = 1023;

export const isOneCaseBech32 = (text: string): boolean => text.length <= MAX_LENGTH && oneCaseBech32(text);

/**
 * Memoised, as the other spellings' decodings are: the codec refuses by throwing, and a throw costs
 * tens of microseconds, which a rule's list of addresses would pay for each item at every transfer.
 */
const oneCaseBech32 = memoised((text: string): boolean => {
  if (!SHAPE.test(text.toLowerCase())) return false;
  return bech32.decodeUnsafe(text, MAX_LENGTH) !== undefined || bech32m.decodeUnsafe(text, MAX_LENGTH) !== undefined;
});
