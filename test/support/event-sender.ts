/**
 * Plays the custody platform's event webhook: POSTs a JSON body with `x-service-signature` =
 * base64 RSA-PSS (SHA-512, salt 64) over the exact bytes sent, signed with an RSA-4096 key as in
 * production. Key pairs are generated once per test process (a 4096-bit key takes a second or
 * two). Tampering helpers produce the deliveries an attacker or a broken proxy could send.
 */
import { constants, generateKeyPair, sign, type KeyObject } from "node:crypto";
import { promisify } from "node:util";

const generateRsa = promisify(generateKeyPair);

export interface RsaKeyPair {
  publicKey: KeyObject;
  privateKey: KeyObject;
  publicKeyPem: string;
}

let keys: Promise<{ platform: RsaKeyPair; stranger: RsaKeyPair }> | undefined;

async function rsa4096(): Promise<RsaKeyPair> {
  const { publicKey, privateKey } = await generateRsa("rsa", { modulusLength: 4096 });
  return { publicKey, privateKey, publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString() };
}

/** The platform's key pair and an unrelated one of the same size; cached per process. */
export function eventKeys(): Promise<{ platform: RsaKeyPair; stranger: RsaKeyPair }> {
  keys ??= Promise.all([rsa4096(), rsa4096()]).then(([platform, stranger]) => ({ platform, stranger }));
  return keys;
}

export function signPss(privateKey: KeyObject, body: Uint8Array): string {
  return sign("sha512", body, { key: privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 64 }).toString("base64");
}

export function signPkcs1v15(privateKey: KeyObject, body: Uint8Array): string {
  return sign("sha512", body, { key: privateKey, padding: constants.RSA_PKCS1_PADDING }).toString("base64");
}

/**
 * How a delivery departs from the documented one:
 * - `change-one-byte`: signed, then one letter or digit of the body changed (still valid JSON);
 * - `other-key`: PSS-signed with a key that is not the platform's;
 * - `pkcs1-v1.5`: the platform's key, but PKCS#1 v1.5 padding instead of PSS;
 * - `no-header`, `empty-header`, `not-base64`: the signature header missing, empty, garbled;
 * - `empty-body`: no body at all, with the signature of the empty string.
 */
export type Tamper = "change-one-byte" | "other-key" | "pkcs1-v1.5" | "no-header" | "empty-header" | "not-base64" | "empty-body";

export interface Delivery {
  body: Buffer;
  signature: string | undefined;
}

/** The bytes and header the platform would send for `event` (an object, or exact JSON text). */
export async function signedDelivery(event: object | string, tamper?: Tamper): Promise<Delivery> {
  const { platform, stranger } = await eventKeys();
  const body = Buffer.from(typeof event === "string" ? event : JSON.stringify(event), "utf8");
  switch (tamper) {
    case undefined:
      return { body, signature: signPss(platform.privateKey, body) };
    case "change-one-byte":
      return { signature: signPss(platform.privateKey, body), body: changeOneByte(body) };
    case "other-key":
      return { body, signature: signPss(stranger.privateKey, body) };
    case "pkcs1-v1.5":
      return { body, signature: signPkcs1v15(platform.privateKey, body) };
    case "no-header":
      return { body, signature: undefined };
    case "empty-header":
      return { body, signature: "" };
    case "not-base64":
      return { body, signature: `!${signPss(platform.privateKey, body).slice(1)}` };
    case "empty-body":
      return { body: Buffer.alloc(0), signature: signPss(platform.privateKey, Buffer.alloc(0)) };
  }
}

/** Changes the last letter or digit (a→b, z→a, 9→0, ...), so the JSON stays valid. */
export function changeOneByte(body: Buffer): Buffer {
  const changed = Buffer.from(body);
  for (let i = changed.length - 1; i >= 0; i--) {
    const byte = changed[i] ?? 0;
    const next = nextAlphanumeric(byte);
    if (next !== null) {
      changed[i] = next;
      return changed;
    }
  }
  throw new Error("changeOneByte: the body has no letter or digit to change");
}

function nextAlphanumeric(byte: number): number | null {
  const ranges: Array<[number, number]> = [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
  ];
  for (const [low, high] of ranges) {
    if (byte >= low && byte <= high) return byte === high ? low : byte + 1;
  }
  return null;
}

export interface EventResponse {
  status: number;
  body: unknown;
}

/** POSTs a delivery to `url` (e.g. `http://127.0.0.1:PORT/v1/events`). */
export async function postDelivery(url: string, delivery: Delivery, extraHeaders: Record<string, string> = {}): Promise<EventResponse> {
  const headers: Record<string, string> = { "content-type": "application/json", ...extraHeaders };
  if (delivery.signature !== undefined) headers["x-service-signature"] = delivery.signature;
  const response = await fetch(url, { method: "POST", headers, body: delivery.body });
  const text = await response.text();
  return { status: response.status, body: text.length > 0 ? (JSON.parse(text) as unknown) : null };
}

/** Signs `event` (optionally tampered) and POSTs it. */
export async function sendEvent(url: string, event: object | string, tamper?: Tamper): Promise<EventResponse> {
  return postDelivery(url, await signedDelivery(event, tamper));
}
