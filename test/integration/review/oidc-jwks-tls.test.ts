/**
 * The JWKS that decides whose ID tokens release transfers is fetched over TLS (or from this
 * machine), like the issuer itself: a discovery document naming a plain-http `jwks_uri` on another
 * host (a provider behind a TLS proxy that advertises its own http address does) had the keys
 * fetched in clear, where anyone on the path could hand over a key of their own and sign ID
 * tokens for any reviewer.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { ReviewerAuth } from "../../../src/review/auth.js";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function serve(host: string, handler: (url: string) => unknown): Promise<string> {
  const server = createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(handler(req.url ?? "")));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

describe("OIDC discovery", () => {
  it("refuses a jwks_uri that is plain http to another host", async () => {
    const keys = await generateKeyPair("RS256");
    const jwk = { ...(await exportJWK(keys.publicKey)), kid: "k1", alg: "RS256", use: "sig" };
    // 127.0.0.2 stands for another host reached in clear: it is not among the loopback names
    // (127.0.0.1, localhost, [::1]) that http is allowed to.
    const jwksBase = await serve("127.0.0.2", () => ({ keys: [jwk] }));
    let issuer = "";
    issuer = await serve("127.0.0.1", () => ({ issuer, jwks_uri: `${jwksBase}/jwks` }));
    const token = await new SignJWT({ email: "mallory@example.com" })
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .setIssuer(issuer)
      .setAudience("countersign")
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(keys.privateKey);
    const auth = new ReviewerAuth({ oidc: { issuer, audience: "countersign", identityClaim: "email" }, tokens: [] });
    const result = await auth.authenticate(token);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe("UNAVAILABLE");
  });

  it("accepts a jwks_uri on this machine over http (a provider beside the service)", async () => {
    const keys = await generateKeyPair("RS256");
    const jwk = { ...(await exportJWK(keys.publicKey)), kid: "k1", alg: "RS256", use: "sig" };
    const jwksBase = await serve("127.0.0.1", () => ({ keys: [jwk] }));
    let issuer = "";
    issuer = await serve("127.0.0.1", () => ({ issuer, jwks_uri: `${jwksBase}/jwks` }));
    const token = await new SignJWT({ email: "alice@example.com" })
      .setProtectedHeader({ alg: "RS256", kid: "k1" })
      .setIssuer(issuer)
      .setAudience("countersign")
      .setIssuedAt()
      .setExpirationTime("10m")
      .sign(keys.privateKey);
    const auth = new ReviewerAuth({ oidc: { issuer, audience: "countersign", identityClaim: "email" }, tokens: [] });
    expect(await auth.authenticate(token)).toMatchObject({ ok: true, value: { identity: "alice@example.com", via: "oidc" } });
  });
});
