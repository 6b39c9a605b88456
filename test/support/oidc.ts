/**
 * A local OpenID Connect issuer for tests: discovery and a JWKS served over HTTP on 127.0.0.1:0,
 * and ID tokens signed with jose by the issuer's key (or by a stranger's, for negative tests).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from "jose";

export interface TestIssuer {
  issuer: string;
  /** An ID token for `claims` (default audience and a 10-minute lifetime), signed by the issuer's key. */
  idToken(claims: JWTPayload, options?: TokenOptions): Promise<string>;
  /** How many times the JWKS was fetched. */
  jwksFetches(): number;
  stop(): Promise<void>;
}

export interface TokenOptions {
  audience?: string | string[];
  issuer?: string;
  /** A jose time span (`10m`, `-1m`); null: no `exp` claim at all. */
  expiresIn?: string | null;
  /** `iat`, seconds since the epoch (default now). */
  issuedAt?: number;
  /** The header's `typ` (default none). */
  typ?: string;
  foreignKey?: boolean;
}

export async function startTestIssuer(audience: string): Promise<TestIssuer> {
  const own = await generateKeyPair("RS256");
  const stranger = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(own.publicKey)), kid: "test-key-1", alg: "RS256", use: "sig" };
  let fetches = 0;
  let issuer = "";
  const server: Server = createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    if (req.url === "/.well-known/openid-configuration") {
      res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks`, id_token_signing_alg_values_supported: ["RS256"] }));
    } else if (req.url === "/jwks") {
      fetches++;
      res.end(JSON.stringify({ keys: [jwk] }));
    } else {
      res.statusCode = 404;
      res.end("{}");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const sign = (key: CryptoKey, claims: JWTPayload, o: TokenOptions) => {
    const jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: "RS256", kid: "test-key-1", ...(o.typ === undefined ? {} : { typ: o.typ }) })
      .setIssuer(o.issuer ?? issuer)
      .setAudience(o.audience ?? audience)
      .setIssuedAt(o.issuedAt);
    return (o.expiresIn === null ? jwt : jwt.setExpirationTime(o.expiresIn ?? "10m")).sign(key);
  };
  return {
    issuer,
    idToken: (claims, options = {}) => sign(options.foreignKey ? stranger.privateKey : own.privateKey, claims, options),
    jwksFetches: () => fetches,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
