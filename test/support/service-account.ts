/**
 * Service-account key pairs for tests: RSA 2048 (fast to generate; the API accepts it), the
 * private key as PKCS#8 or PKCS#1 PEM, and a helper that writes a PEM to a temporary file for
 * configuration tests (COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE).
 */
import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scratchDir } from "./scratch.js";

export interface TestServiceAccount {
  email: string;
  /** PEM of the private key, in the requested encoding. */
  privateKeyPem: string;
  publicKeyPem: string;
  publicKey: KeyObject;
}

export function createTestServiceAccount(options: { email?: string; encoding?: "pkcs8" | "pkcs1" } = {}): TestServiceAccount {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: options.encoding ?? "pkcs8", format: "pem" }).toString();
  return {
    email: options.email ?? "countersign@example-custody.test",
    privateKeyPem,
    publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
    publicKey,
  };
}

/** Writes `pem` to a fresh temporary directory; `remove()` deletes it. */
export function writeTempPem(pem: string, fileName = "service-account.pem"): { path: string; remove: () => void } {
  const dir = scratchDir("key");
  const path = join(dir, fileName);
  writeFileSync(path, pem, { mode: 0o600 });
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
