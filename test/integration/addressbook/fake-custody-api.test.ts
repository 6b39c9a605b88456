/** The fake must be as strict as the real API, or the client tests prove nothing. */
import { createPrivateKey } from "node:crypto";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeData, startFakeCustodyApi, type FakeCustodyApi } from "../../support/fake-custody-api.js";
import { createTestServiceAccount } from "../../support/service-account.js";

const account = createTestServiceAccount();
const stranger = createTestServiceAccount();
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe("fake custody API", () => {
  let api: FakeCustodyApi;
  beforeAll(async () => {
    api = await startFakeCustodyApi({ serviceAccountEmail: account.email, publicKey: account.publicKey });
    api.setAddressBook(
      "v1",
      Array.from({ length: 120 }, (_, i) => fakeData.entry("v1", i)),
    );
  });
  afterAll(() => api.close());

  const jwt = (claims: { sub?: string; aud?: string; iat?: number; exp?: number } = {}, key = account) => {
    const iat = claims.iat ?? nowSeconds();
    return new SignJWT({})
      .setProtectedHeader({ alg: "RS256" })
      .setSubject(claims.sub ?? account.email)
      .setAudience(claims.aud ?? `${api.baseUrl}/`)
      .setIssuedAt(iat)
      .setExpirationTime(claims.exp ?? iat + 3600)
      .sign(createPrivateKey(key.privateKeyPem));
  };
  const get = async (path: string, token?: string) => {
    const res = await fetch(`${api.baseUrl}${path}`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it("answers a valid token", async () => {
    expect((await get("/v2/vaults/v1/addressBookEntries", await jwt())).status).toBe(200);
  });

  it.each([
    ["no token", async () => undefined],
    ["another key", async () => jwt({}, stranger)],
    ["an expired token", async () => jwt({ iat: nowSeconds() - 7200, exp: nowSeconds() - 3600 })],
    ["another audience", async () => jwt({ aud: "https://elsewhere.test/" })],
    ["the audience without trailing slash", async () => jwt({ aud: api.baseUrl })],
    ["another subject", async () => jwt({ sub: "intruder@example.test" })],
    ["a lifetime over one hour", async () => jwt({ exp: nowSeconds() + 7200 })],
  ])("refuses %s with 401 and a googlerpcStatus body", async (_, token) => {
    const { status, body } = await get("/v2/vaults/v1/addressBookEntries", await token());
    expect(status).toBe(401);
    expect(body).toMatchObject({ code: 16, message: expect.any(String) });
  });

  it("pages with default 50, coerces pageSize to at most 1000, and binds the token to the other parameters", async () => {
    const token = await jwt();
    const first = await get("/v2/vaults/v1/addressBookEntries", token);
    expect((first.body.addressBookEntries as unknown[]).length).toBe(50);
    const big = await get("/v2/vaults/v1/addressBookEntries?pageSize=5000", token);
    expect((big.body.addressBookEntries as unknown[]).length).toBe(120);
    expect(big.body.nextPageToken).toBeUndefined();
    const page1 = await get("/v2/vaults/v1/addressBookEntries?pageSize=100", token);
    const next = encodeURIComponent(page1.body.nextPageToken as string);
    const page2 = await get(`/v2/vaults/v1/addressBookEntries?pageSize=100&pageToken=${next}`, token);
    expect((page2.body.addressBookEntries as unknown[]).length).toBe(20);
    const changed = await get(`/v2/vaults/v1/addressBookEntries?pageSize=10&pageToken=${next}`, token);
    expect(changed.status).toBe(400);
  });

  it("can fail, rate-limit and records requests", async () => {
    const token = await jwt();
    api.failNext(1);
    expect((await get("/v2/vaults/v1/addressBookEntries", token)).status).toBe(500);
    api.rateLimitNext(1);
    expect((await get("/v2/vaults/v1/addressBookEntries", token)).status).toBe(429);
    expect((await get("/v2/vaults/v1/addressBookEntries", token)).status).toBe(200);
    expect(api.requests.slice(-3).map((r) => r.status)).toEqual([500, 429, 200]);
    expect((await get("/v2/vaults/unknown/addressBookEntries", token)).status).toBe(403);
  });
});
