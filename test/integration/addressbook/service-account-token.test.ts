import { decodeJwt, decodeProtectedHeader } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServiceAccountTokenSource } from "../../../src/addressbook/service-account-token.js";
import { CustodyApiError } from "../../../src/addressbook/errors.js";
import { startFakeCustodyApi, type FakeCustodyApi } from "../../support/fake-custody-api.js";
import { createTestServiceAccount } from "../../support/service-account.js";

const account = createTestServiceAccount();
const T0 = new Date("2026-11-21T12:00:00Z");

describe("service-account token", () => {
  let api: FakeCustodyApi;
  beforeAll(async () => {
    api = await startFakeCustodyApi({ serviceAccountEmail: account.email, publicKey: account.publicKey });
    api.setAddressBook("v1", []);
  });
  afterAll(() => api.close());

  const source = (now: () => Date, privateKeyPem = account.privateKeyPem, baseUrl = api.baseUrl) =>
    createServiceAccountTokenSource({ baseUrl, serviceAccountEmail: account.email, privateKeyPem, now });

  it("is an RS256 JWT with sub, aud = base URL + '/', iat and exp at most one hour later", async () => {
    const jwt = await source(() => T0, account.privateKeyPem, "https://api.example.test/").token();
    expect(decodeProtectedHeader(jwt).alg).toBe("RS256");
    const claims = decodeJwt(jwt);
    expect(claims.sub).toBe(account.email);
    expect(claims.aud).toBe("https://api.example.test/");
    expect(claims.iat).toBe(T0.getTime() / 1000);
    expect(claims.exp! - claims.iat!).toBeLessThanOrEqual(3600);
    expect(claims.exp! - claims.iat!).toBeGreaterThan(600);
  });

  it("is accepted by the fake custody API, which verifies the signature, audience and subject", async () => {
    const jwt = await source(() => new Date()).token();
    const res = await fetch(`${api.baseUrl}/v2/vaults/v1/addressBookEntries`, { headers: { authorization: `Bearer ${jwt}` } });
    expect(res.status).toBe(200);
  });

  it("is reused until five minutes before expiry, then renewed", async () => {
    let now = T0;
    const tokens = source(() => now);
    const first = await tokens.token();
    now = new Date(T0.getTime() + 54 * 60_000);
    expect(await tokens.token()).toBe(first);
    now = new Date(T0.getTime() + 56 * 60_000);
    const renewed = await tokens.token();
    expect(renewed).not.toBe(first);
    expect(decodeJwt(renewed).iat).toBe(now.getTime() / 1000);
  });

  it("signs a fresh token after invalidate()", async () => {
    let now = T0;
    const tokens = source(() => now);
    const first = await tokens.token();
    now = new Date(T0.getTime() + 1000);
    tokens.invalidate();
    expect(await tokens.token()).not.toBe(first);
  });

  it("accepts a PKCS#1 ('BEGIN RSA PRIVATE KEY') key", async () => {
    const pkcs1 = createTestServiceAccount({ encoding: "pkcs1" });
    expect(pkcs1.privateKeyPem).toContain("BEGIN RSA PRIVATE KEY");
    const jwt = await createServiceAccountTokenSource({ baseUrl: "https://x.test", serviceAccountEmail: "a@b", privateKeyPem: pkcs1.privateKeyPem }).token();
    expect(decodeJwt(jwt).aud).toBe("https://x.test/");
  });

  it("fails with CREDENTIALS, without quoting the key, when the PEM is not an RSA private key", async () => {
    const broken = account.privateKeyPem.replace(/[A-Za-z]{20}/, "AAAAAAAAAAAAAAAAAAAA");
    const failure = await source(() => T0, broken)
      .token()
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CustodyApiError);
    expect((failure as CustodyApiError).code).toBe("CREDENTIALS");
    const body = account.privateKeyPem.split("\n")[3]!;
    expect((failure as CustodyApiError).message).not.toContain(body);
    expect((failure as CustodyApiError).message).not.toContain("BEGIN");
  });
});
