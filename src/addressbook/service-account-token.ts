/**
 * The service account's access token for the custody API (reference: Authentication): an RS256
 * JWT signed with the account's private key, `sub` = the account email, `aud` = the API base
 * address with a trailing slash, `exp` at most one hour after `iat`.
 *
 * One token is reused until shortly before it expires, so a sync of many pages and wallets does
 * not sign a JWT per request; concurrent callers share one signing.
 */
import { createPrivateKey } from "node:crypto";
import { importPKCS8, SignJWT } from "jose";
import { CustodyApiError } from "./errors.js";

type SigningKey = Awaited<ReturnType<typeof importPKCS8>>;

export interface ServiceAccountTokenOptions {
  /** API base address without a trailing slash (CustodyApiConfig.baseUrl). */
  baseUrl: string;
  serviceAccountEmail: string;
  /** PKCS#8 ("BEGIN PRIVATE KEY") or PKCS#1 ("BEGIN RSA PRIVATE KEY") PEM. */
  privateKeyPem: string;
  now?: () => Date;
  /** Token lifetime; the API refuses more than 3600 s. */
  lifetimeSeconds?: number;
  /** A token is replaced once it has less than this left. */
  renewBeforeSeconds?: number;
}

export interface ServiceAccountTokenSource {
  /** A valid bearer token; rejects with a CustodyApiError (code CREDENTIALS) when the key cannot sign. */
  token(): Promise<string>;
  /** Forget the cached token (after the API answered 401), so the next call signs a fresh one. */
  invalidate(): void;
}

const MAX_LIFETIME_SECONDS = 3600;

export function createServiceAccountTokenSource(options: ServiceAccountTokenOptions): ServiceAccountTokenSource {
  const now = options.now ?? (() => new Date());
  const lifetime = Math.min(options.lifetimeSeconds ?? MAX_LIFETIME_SECONDS, MAX_LIFETIME_SECONDS);
  const renewBefore = Math.min(options.renewBeforeSeconds ?? 300, lifetime / 2);
  const audience = `${options.baseUrl.replace(/\/+$/, "")}/`;
  let key: Promise<SigningKey> | undefined;
  let cached: { jwt: Promise<string>; exp: number } | undefined;

  const sign = async (iat: number, exp: number): Promise<string> => {
    key ??= importSigningKey(options.privateKeyPem);
    return new SignJWT({})
      .setProtectedHeader({ alg: "RS256", typ: "JWT" })
      .setSubject(options.serviceAccountEmail)
      .setAudience(audience)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(await key);
  };

  return {
    token() {
      const nowSeconds = Math.floor(now().getTime() / 1000);
      if (cached === undefined || nowSeconds >= cached.exp - renewBefore) {
        const exp = nowSeconds + lifetime;
        const jwt = sign(nowSeconds, exp);
        const entry = { jwt, exp };
        cached = entry;
        // A failed signing must not be cached: the next call tries again.
        jwt.catch(() => {
          if (cached === entry) cached = undefined;
        });
      }
      return cached.jwt;
    },
    invalidate() {
      cached = undefined;
    },
  };
}

/** Accepts PKCS#8 and PKCS#1 RSA keys; the error never quotes the key. */
async function importSigningKey(pem: string): Promise<SigningKey> {
  try {
    const keyObject = createPrivateKey({ key: pem, format: "pem" });
    if (keyObject.asymmetricKeyType !== "rsa") {
      throw new Error(`expected an RSA key, got ${keyObject.asymmetricKeyType ?? "a non-asymmetric key"}`);
    }
    const pkcs8 = keyObject.export({ type: "pkcs8", format: "pem" }).toString();
    return await importPKCS8(pkcs8, "RS256");
  } catch (cause) {
    const reason = cause instanceof Error && /expected an RSA key/.test(cause.message) ? cause.message : "not a readable, unencrypted RSA private key (PEM, PKCS#8 or PKCS#1)";
    throw new CustodyApiError("CREDENTIALS", "ServiceAccountToken", null, `the service-account key cannot sign: ${reason}`);
  }
}
