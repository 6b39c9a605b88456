/**
 * One TON account has several spellings: raw (`0:` and 32 bytes in hex, either case) and
 * user-friendly (36 bytes in base64 or base64url: a tag saying bounceable or not and testnet or
 * not, the workchain, the account id and a CRC16). The platform writes its own wallets
 * non-bounceable (`UQ…`), explorers and exchanges often bounceable (`EQ…`), and the chain moves the
 * coins to the same account whichever is used: they compare as one. Base64 is @scure/base's; the
 * tags and the CRC are TON's own, checked against @ton/core's Address in ton-address.test.ts.
 */

import { base64, base64url } from "@scure/base";
import { memoised } from "../codecs/memoised.js";

const RAW = /^(0|-1):([0-9a-fA-F]{64})$/;
const FRIENDLY = /^[A-Za-z0-9+/_-]{48}$/;
/** Bounceable, non-bounceable, and each with the testnet flag. */
const TAGS = new Set([0x11, 0x51, 0x91, 0xd1]);

/** The account as its raw address in lower case (`0:83df…`), or null when `text` is no TON address. */
export const tonAccount = memoised(decodeAccount);

function decodeAccount(text: string): string | null {
  const raw = RAW.exec(text);
  if (raw !== null) return `${raw[1]}:${raw[2]!.toLowerCase()}`;
  if (!FRIENDLY.test(text)) return null;
  // Either alphabet, as @ton/core reads it: the url-safe letters are the standard ones.
  const bytes = Buffer.from(base64.decode(text.replace(/-/g, "+").replace(/_/g, "/")));
  if (bytes.length !== 36 || !TAGS.has(bytes[0]!) || crc16(bytes.subarray(0, 34)) !== bytes.readUInt16BE(34)) return null;
  const workchain = bytes.readInt8(1);
  if (workchain !== 0 && workchain !== -1) return null;
  return `${workchain}:${bytes.subarray(2, 34).toString("hex")}`;
}

/**
 * The account as the platform names a jetton's master in an asset id: user-friendly, bounceable,
 * base64url (`EQ…`), whichever spelling `text` is; null when `text` is no TON address. The asset id
 * carries the network, so the testnet flag is dropped.
 */
export const tonBounceable = memoised((text: string): string | null => {
  const account = tonAccount(text);
  if (account === null) return null;
  const [workchain, hash] = account.split(":") as [string, string];
  const body = Buffer.alloc(36);
  body[0] = BOUNCEABLE;
  body.writeInt8(Number(workchain), 1);
  Buffer.from(hash, "hex").copy(body, 2);
  body.writeUInt16BE(crc16(body.subarray(0, 34)), 34);
  return base64url.encode(body);
});

const BOUNCEABLE = 0x11;

/** CRC-16/XMODEM, the checksum of a user-friendly TON address. */
function crc16(bytes: Buffer): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}
