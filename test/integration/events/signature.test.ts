import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyEventSignature } from "../../../src/events/signature.js";
import { EventsKeyError, loadEventsPublicKeyFile, parseEventsPublicKey } from "../../../src/events/public-key.js";
import { eventKeys, signedDelivery, signPss, type RsaKeyPair, type Tamper } from "../../support/event-sender.js";
import { writeTempPem } from "../../support/service-account.js";

const event = { id: "evt-1", vault: "vaults/v1", type: "TEST" };

describe("verifyEventSignature", () => {
  let platform: RsaKeyPair;
  beforeAll(async () => {
    ({ platform } = await eventKeys());
  });

  it("verifies the documented signature over the exact bytes", async () => {
    const { body, signature } = await signedDelivery(event);
    expect(verifyEventSignature(platform.publicKey, body, signature)).toEqual({ verified: true });
  });

  it.each<[Tamper, string]>([
    ["change-one-byte", "mismatch"],
    ["other-key", "mismatch"],
    ["pkcs1-v1.5", "mismatch"],
    ["no-header", "missing-signature"],
    ["empty-header", "missing-signature"],
    ["not-base64", "malformed-signature"],
    ["empty-body", "empty-body"],
  ])("refuses a delivery tampered by %s (%s)", async (tamper, reason) => {
    const { body, signature } = await signedDelivery(event, tamper);
    expect(verifyEventSignature(platform.publicKey, body, signature)).toEqual({ verified: false, reason });
  });

  it("refuses PSS with another salt length or digest", async () => {
    const { body } = await signedDelivery(event);
    const { sign, constants } = await import("node:crypto");
    const salt32 = sign("sha512", body, { key: platform.privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 });
    const sha256 = sign("sha256", body, { key: platform.privateKey, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 64 });
    expect(verifyEventSignature(platform.publicKey, body, salt32.toString("base64")).verified).toBe(false);
    expect(verifyEventSignature(platform.publicKey, body, sha256.toString("base64")).verified).toBe(false);
  });

  it("refuses a truncated signature and two signatures joined by a proxy", async () => {
    const { body, signature = "" } = await signedDelivery(event);
    expect(verifyEventSignature(platform.publicKey, body, signature.slice(0, 64)).verified).toBe(false);
    expect(verifyEventSignature(platform.publicKey, body, `${signature}, ${signature}`).verified).toBe(false);
  });

  it("refuses base64url and whitespace-padded variants rather than guessing", async () => {
    const { body } = await signedDelivery(event);
    let signature = signPss(platform.privateKey, body);
    // Re-sign until the base64 holds a '+' or '/', so its base64url spelling differs.
    while (!/[+/]/.test(signature)) signature = signPss(platform.privateKey, body);
    const url = signature.replace(/\+/g, "-").replace(/\//g, "_");
    expect(verifyEventSignature(platform.publicKey, body, url).verified).toBe(false);
    expect(verifyEventSignature(platform.publicKey, body, ` ${signature}`).verified).toBe(false);
  });
});

describe("the events public key", () => {
  let platform: RsaKeyPair;
  beforeAll(async () => {
    ({ platform } = await eventKeys());
  });

  it("loads the platform's RSA-4096 public key from a PEM file", () => {
    const file = writeTempPem(platform.publicKeyPem, "events.pem");
    try {
      expect(loadEventsPublicKeyFile(file.path).asymmetricKeyDetails?.modulusLength).toBe(4096);
    } finally {
      file.remove();
    }
  });

  it("accepts a PKCS#1 RSA public key", () => {
    const pem = platform.publicKey.export({ type: "pkcs1", format: "pem" }).toString();
    expect(parseEventsPublicKey(pem).asymmetricKeyType).toBe("rsa");
  });

  it("refuses an RSA key under 2048 bits", () => {
    const { publicKey } = generateKeyPairSync("rsa", { modulusLength: 1024 });
    const pem = publicKey.export({ type: "spki", format: "pem" }).toString();
    expect(() => parseEventsPublicKey(pem)).toThrow(/1024 bits is too short/);
  });

  it("refuses a key that is not RSA", () => {
    const { publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const pem = publicKey.export({ type: "spki", format: "pem" }).toString();
    expect(() => parseEventsPublicKey(pem)).toThrow(/must be an RSA key \(got ec\)/);
  });

  it("refuses a private key", () => {
    const pem = platform.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    expect(() => parseEventsPublicKey(pem)).toThrow(/is a private key/);
  });

  it("refuses text that is not a PEM key", () => {
    expect(() => parseEventsPublicKey("not a key")).toThrow(EventsKeyError);
  });

  describe("file errors name the file, not its content", () => {
    let file: { path: string; remove(): void };
    beforeAll(() => {
      file = writeTempPem("-----BEGIN PUBLIC KEY-----\nnonsense\n-----END PUBLIC KEY-----\n", "broken.pem");
    });
    afterAll(() => file.remove());

    it("names an unreadable file", () => {
      expect(() => loadEventsPublicKeyFile(`${file.path}.missing`)).toThrow(/broken\.pem\.missing: cannot be read/);
    });

    it("names a file that holds no key", () => {
      let message = "";
      try {
        loadEventsPublicKeyFile(file.path);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/broken\.pem: is not a PEM public key/);
      expect(message).not.toMatch(/nonsense/);
    });
  });
});
