/**
 * The platform's webhook public key (COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE), loaded once at startup.
 * A key that cannot be right is refused there, with a message saying why, rather than turning
 * every delivery into a 401 that only shows up as the platform giving up after 24 hours.
 */
import { createPublicKey, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";

/** The platform uses RSA-4096; below 2048 bits a key is not trusted to authenticate money movement. */
export const MIN_MODULUS_BITS = 2048;

export class EventsKeyError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "EventsKeyError";
  }
}

/** Reads and checks the PEM file; the error message names the file, never its content. */
export function loadEventsPublicKeyFile(path: string): KeyObject {
  let pem: string;
  try {
    pem = readFileSync(path, "utf8");
  } catch (cause) {
    throw new EventsKeyError(`events public key file ${path}: cannot be read`, { cause });
  }
  try {
    return parseEventsPublicKey(pem);
  } catch (error) {
    if (error instanceof EventsKeyError) throw new EventsKeyError(`events public key file ${path}: ${error.message}`);
    throw error;
  }
}

/** Parses a PEM public key (SPKI or PKCS#1) and checks it; a private key is refused. */
export function parseEventsPublicKey(pem: string): KeyObject {
  // A private key would work (the public half is derivable) but has no business on this server.
  if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(pem)) {
    throw new EventsKeyError("is a private key; configure the platform's webhook public key (PEM)");
  }
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: "pem" });
  } catch (cause) {
    throw new EventsKeyError("is not a PEM public key", { cause });
  }
  assertEventsPublicKey(key);
  return key;
}

/** Refuses a key that is not public, not RSA, or shorter than MIN_MODULUS_BITS. */
export function assertEventsPublicKey(key: KeyObject): void {
  if (key.type !== "public") throw new EventsKeyError(`must be a public key (got a ${key.type} key)`);
  if (key.asymmetricKeyType !== "rsa") {
    throw new EventsKeyError(`must be an RSA key (got ${key.asymmetricKeyType ?? "an unknown type"})`);
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < MIN_MODULUS_BITS) {
    throw new EventsKeyError(`RSA key of ${bits} bits is too short (at least ${MIN_MODULUS_BITS}; the platform uses 4096)`);
  }
}
