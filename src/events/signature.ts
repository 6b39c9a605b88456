/**
 * The platform signs every event delivery: header `x-service-signature` holds a base64 RSA-PSS
 * signature (SHA-512, salt length 64 = the digest length) over the exact body bytes — after any
 * Content-Encoding is undone, so a proxy compressing the request leaves what the platform signed. It is
 * checked before the body is parsed, so nothing an unauthenticated sender wrote reaches the JSON
 * parser, the database or an effect. The header alone is checked before the body is even read
 * (signatureFromHeader): a header that cannot be a signature by this key costs no read.
 */
import { constants, verify, type KeyObject } from "node:crypto";

export const SIGNATURE_HEADER = "x-service-signature";

const DIGEST = "sha512";
const SALT_LENGTH = 64;

// Strict base64: Buffer.from(s, "base64") silently skips characters outside the alphabet, which
// would let a mangled header decode to something; such a header is refused outright instead.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export type SignatureRejection = "missing-signature" | "malformed-signature" | "empty-body" | "mismatch";

export type SignatureCheck = { verified: true } | { verified: false; reason: SignatureRejection };

/**
 * The signature a header holds, or why it holds none, without the body: strict base64 of exactly
 * as many bytes as the key's modulus, the length of every RSA signature by that key.
 */
export function signatureFromHeader(publicKey: KeyObject, header: string | undefined): { signature: Buffer } | { rejected: SignatureRejection } {
  if (header === undefined || header.length === 0) return { rejected: "missing-signature" };
  if (!BASE64.test(header)) return { rejected: "malformed-signature" };
  const signature = Buffer.from(header, "base64");
  if (signature.length !== modulusBytes(publicKey)) return { rejected: "malformed-signature" };
  return { signature };
}

const modulusBytes = (publicKey: KeyObject): number => Math.ceil((publicKey.asymmetricKeyDetails?.modulusLength ?? 0) / 8);

/** Verifies one delivery. Never throws: anything that is not a valid signature is `verified: false`. */
export function verifyEventSignature(publicKey: KeyObject, body: Uint8Array, header: string | undefined): SignatureCheck {
  const found = signatureFromHeader(publicKey, header);
  if ("rejected" in found) return rejected(found.rejected);
  if (body.length === 0) return rejected("empty-body");
  return pssVerify(publicKey, body, found.signature) ? { verified: true } : rejected("mismatch");
}

function pssVerify(publicKey: KeyObject, body: Uint8Array, signature: Buffer): boolean {
  try {
    return verify(DIGEST, body, { key: publicKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: SALT_LENGTH }, signature);
  } catch {
    // A signature of the wrong length or a key that cannot do PSS: not verified, never a 500.
    return false;
  }
}

function rejected(reason: SignatureRejection): SignatureCheck {
  return { verified: false, reason };
}
