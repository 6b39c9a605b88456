/**
 * Whether a string is a bech32 or bech32m string (BIP-173, BIP-350) in one case, whatever its
 * human-readable prefix: Bitcoin's `bc1…`, Litecoin's `ltc1…`, a Cosmos chain's `cosmos1…`, a
 * Cardano address (`addr1…`, `addr_test1…`). BIP-173
 * makes such a string in capitals the same as in lower case (and mixed case invalid), so the
 * checksum, not the prefix, says which strings may be read without case.
 */

const CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
const BECH32_CONSTANT = 1;
const BECH32M_CONSTANT = 0x2bc830a3;
/**
 * Prefix, separator and at least the 6 checksum characters. BIP-173 bounds a segwit address to 90
 * characters, but the code is defined up to 1023 and other chains write longer strings: a Cardano
 * base address is 103 (`addr1…`), a testnet one 108 with an `_` in its prefix (`addr_test1…`, CIP-5).
 * Bounded at 90 and to letters and digits, `ADDR1…` was compared as written, so a deny rule naming
 * `addr1…` let the capitals through (found by a review of account spellings).
 */
const SHAPE = /^([a-z0-9_]{1,83})1([qpzry9x8gf2tvdw0s3jn54khce6mua7l]{6,})$/;
const MAX_LENGTH = 1023;

export function isOneCaseBech32(text: string): boolean {
  if (text.length > MAX_LENGTH) return false;
  const lower = text.toLowerCase();
  if (text !== lower && text !== text.toUpperCase()) return false;
  const parts = SHAPE.exec(lower);
  if (parts === null) return false;
  const prefix = parts[1]!;
  const data = [...parts[2]!].map((c) => CHARSET.indexOf(c));
  const check = polymod([...[...prefix].map((c) => c.charCodeAt(0) >> 5), 0, ...[...prefix].map((c) => c.charCodeAt(0) & 31), ...data]);
  return check === BECH32_CONSTANT || check === BECH32M_CONSTANT;
}

function polymod(values: readonly number[]): number {
  let chk = 1;
  for (const value of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ value;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GENERATOR[i]!;
  }
  return chk >>> 0;
}
