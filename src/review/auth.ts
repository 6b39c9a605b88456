/**
 * Reviewer authentication (docs/interface.md section 9): `Authorization: Bearer <token>` where the token
 * is a reviewer token from COUNTERSIGN_REVIEWER_TOKENS_FILE (compared by SHA-256 in constant time)
 * or an OpenID Connect ID token verified by jose against the issuer's JWKS, found by discovery.
 * The webhook and admin tokens are never reviewer credentials, even if listed in the file.
 * Authentication only says who the caller is: what they may read or do is membership of the bundle's
 * reviewer groups, checked by the review desk (src/review/desk.ts) on every route.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from "jose";
import { AppError, err, ok, type Result } from "../core/errors.js";
import { hasCredentials, httpsOrLoopback } from "../https-only.js";
import type { OidcConfig, ReviewConfig } from "./config.js";
import { normalIdentity } from "../core/review/types.js";

export interface Reviewer {
  identity: string;
  via: "oidc" | "token";
  /** When the credential stops being accepted: an ID token's `exp`; a reviewer token has none. */
  expiresAt?: Date;
}

/** Asymmetric signatures only: an ID token signed with a shared secret is not the provider's. */
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];
const DISCOVERY_TIMEOUT_MS = 5_000;

const sha256 = (value: string) => createHash("sha256").update(value, "utf8").digest();
const looksLikeJwt = (token: string) => /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);

export class ReviewerAuth {
  private jwks: Promise<JWTVerifyGetKey> | undefined;
  private readonly refused: Buffer[];

  constructor(
    private readonly config: Pick<ReviewConfig, "oidc" | "tokens">,
    /** Credentials that are never a reviewer's: the webhook and admin tokens. */
    refused: readonly (string | undefined)[] = [],
  ) {
    this.refused = refused.filter((t): t is string => t !== undefined).map(sha256);
  }

  /** Whether any reviewer credential is configured at all. */
  get configured(): boolean {
    return this.config.oidc !== undefined || this.config.tokens.length > 0;
  }

  async authenticate(token: string | undefined): Promise<Result<Reviewer, AppError>> {
    if (!this.configured) return err(new AppError("FORBIDDEN", "review is disabled: configure COUNTERSIGN_OIDC_ISSUER or COUNTERSIGN_REVIEWER_TOKENS_FILE"));
    if (token === undefined || token === "") return err(new AppError("UNAUTHORIZED", "a reviewer token is required"));
    const digest = sha256(token);
    if (this.refused.some((r) => timingSafeEqual(r, digest))) return err(new AppError("UNAUTHORIZED", "reviewer token is not valid"));
    // Every listed token is compared, so timing does not tell which line matched.
    const matches = this.config.tokens.filter((t) => timingSafeEqual(t.sha256, digest));
    if (matches.length > 0) return ok({ identity: matches[0]!.identity, via: "token" });
    if (this.config.oidc && looksLikeJwt(token)) return this.verifyIdToken(this.config.oidc, token);
    return err(new AppError("UNAUTHORIZED", "reviewer token is not valid"));
  }

  private async verifyIdToken(oidc: OidcConfig, token: string): Promise<Result<Reviewer, AppError>> {
    let keys: JWTVerifyGetKey;
    try {
      keys = await this.keys(oidc);
    } catch {
      this.jwks = undefined; // ask the provider again next time
      return err(new AppError("UNAVAILABLE", "the identity provider cannot be reached to verify the token"));
    }
    try {
      const { payload, protectedHeader } = await jwtVerify(token, keys, {
        issuer: oidc.issuer,
        audience: oidc.audience,
        algorithms: ALGORITHMS,
        // An ID token expires and says when it was issued; one issued in the future or long ago is refused.
        requiredClaims: ["exp", "iat"],
        maxTokenAge: ID_TOKEN_MAX_AGE,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
      });
      const refusal = notThisClientsIdToken(payload, protectedHeader.typ, oidc.audience);
      if (refusal !== null) return err(new AppError("UNAUTHORIZED", refusal));
      const identity = payload[oidc.identityClaim];
      if (typeof identity !== "string" || identity.trim() === "") {
        return err(new AppError("UNAUTHORIZED", `the ID token has no ${oidc.identityClaim} claim`));
      }
      if (!singleSpelling(identity)) return err(new AppError("UNAUTHORIZED", `the ID token's ${oidc.identityClaim} holds a compatibility or invisible character`));
      // Absent is the provider's choice (some do not send it); present, only `true` verifies.
      if (oidc.identityClaim === "email" && payload.email_verified !== undefined && payload.email_verified !== true) {
        return err(new AppError("UNAUTHORIZED", "the ID token's email is not verified"));
      }
      // requiredClaims holds `exp` to be there, and jose to be a number.
      return ok({ identity: normalIdentity(identity), via: "oidc", expiresAt: new Date(payload.exp! * 1000) });
    } catch (error) {
      // jose's own errors are about the token (signature, claims, expiry, unknown key); anything else is fetching the keys.
      if (error instanceof joseErrors.JWKSTimeout || !(error instanceof joseErrors.JOSEError)) {
        return err(new AppError("UNAVAILABLE", "the identity provider cannot be reached to verify the token"));
      }
      return err(new AppError("UNAUTHORIZED", "reviewer token is not valid"));
    }
  }

  /** The issuer's JWKS, located by OpenID Connect discovery once and then cached (jose refreshes the keys). */
  private keys(oidc: OidcConfig): Promise<JWTVerifyGetKey> {
    this.jwks ??= discoverJwks(oidc.issuer);
    return this.jwks;
  }
}

/**
 * Whether an identity has one spelling: in Unicode's compatibility normal form (NFKC) and without
 * control or format characters. Identities compare after lower-casing, which turns the Kelvin sign
 * U+212A into an ASCII k and the Angstrom sign U+212B into å: an ID token for "\u212Aim@…", another
 * account at a provider that allows the character, was kim.
 */
const singleSpelling = (identity: string): boolean => identity === identity.normalize("NFKC") && !/[\p{Cc}\p{Cf}]/u.test(identity);

const ID_TOKEN_MAX_AGE = "24h";
const CLOCK_TOLERANCE_SECONDS = 60;

/**
 * Why a verified token is not an ID token issued to this client, or null (OpenID Connect Core
 * 3.1.3.7): an access token (`typ` `at+jwt`) is not an ID token; a token for several audiences must
 * name this client as its authorized party, and an `azp` naming another client is another's token.
 */
function notThisClientsIdToken(payload: JWTPayload, typ: string | undefined, audience: string): string | null {
  if (typ !== undefined && !["jwt", "application/jwt"].includes(typ.toLowerCase())) return "the token is not an ID token";
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (payload.azp !== undefined && payload.azp !== audience) return "the ID token was issued to another client";
  if (audiences.length > 1 && payload.azp === undefined) return "the ID token names several audiences and no authorized party";
  return null;
}

async function discoverJwks(issuer: string): Promise<JWTVerifyGetKey> {
  const url = `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
  const response = await fetch(url, { signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS), redirect: "error" });
  if (!response.ok) throw new Error(`discovery answered ${response.status}`);
  const document = (await response.json()) as { issuer?: unknown; jwks_uri?: unknown };
  // The document must be the issuer's own (OpenID Connect Discovery 1.0, section 4.3).
  if (document.issuer !== issuer || typeof document.jwks_uri !== "string") throw new Error("discovery document does not match the issuer");
  // The keys are held to the issuer's own rule (src/https-only.ts): fetched in clear from another
  // host, anyone on the path could hand over a key of their own and sign any reviewer's ID token.
  const jwksUri = new URL(document.jwks_uri);
  if (!httpsOrLoopback(jwksUri) || hasCredentials(jwksUri)) throw new Error("discovery document names a jwks_uri that is not https");
  return createRemoteJWKSet(jwksUri, { timeoutDuration: DISCOVERY_TIMEOUT_MS });
}
