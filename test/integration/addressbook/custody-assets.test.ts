/**
 * The decimals lookup against the fake custody API over HTTP, with its service-account JWT checks:
 * GetAsset, the GetVaultAsset fallback, and answers that must not be believed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCustodyGet } from "../../../src/addressbook/custody-http.js";
import { createServiceAccountTokenSource } from "../../../src/addressbook/service-account-token.js";
import { createDecimalsFetcher, type FetchDecimals } from "../../../src/assets/custody-assets.js";
import { startFakeCustodyApi, type FakeCustodyApi } from "../../support/fake-custody-api.js";
import { createTestServiceAccount } from "../../support/service-account.js";

const account = createTestServiceAccount();
const USDC = "assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";

describe("asset decimals from the custody API", () => {
  let api: FakeCustodyApi;
  let fetchDecimals: FetchDecimals;
  beforeAll(async () => {
    api = await startFakeCustodyApi({ serviceAccountEmail: account.email, publicKey: account.publicKey });
    api.setAsset({ name: USDC, symbol: "USDC", decimals: 6 });
    api.setAsset({ name: "assets/imported.v1.tok", decimals: 9 }, "v1");
    api.setAsset({ name: "assets/nodecimals", symbol: "X" });
    api.setAsset({ name: "assets/fractional", decimals: 6.5 });
    const tokens = createServiceAccountTokenSource({ baseUrl: api.baseUrl, serviceAccountEmail: account.email, privateKeyPem: account.privateKeyPem });
    fetchDecimals = createDecimalsFetcher(createCustodyGet({ baseUrl: api.baseUrl, tokens, timeoutMs: 2000, retry: { maxAttempts: 1 } }));
  });
  afterAll(() => api.close());

  it("reads GetAsset with the service account's token", async () => {
    expect(await fetchDecimals(USDC, "vaults/v1")).toEqual({ ok: true, value: 6 });
    expect(api.requests.at(-1)).toMatchObject({ path: `/v2/assets/${USDC.slice("assets/".length)}`, status: 200, authorization: expect.stringMatching(/^Bearer /) });
  });

  it("falls back to GetVaultAsset for an asset only the vault serves", async () => {
    expect(await fetchDecimals("assets/imported.v1.tok", "vaults/v1")).toEqual({ ok: true, value: 9 });
    expect(api.requests.slice(-2).map((r) => [r.path, r.status])).toEqual([
      ["/v2/assets/imported.v1.tok", 404],
      ["/v2/vaults/v1/assets/imported.v1.tok", 200],
    ]);
  });

  it("does not believe an answer without decimals or with fractional decimals", async () => {
    const code = async (asset: string) => {
      const r = await fetchDecimals(asset, "vaults/v1");
      return r.ok ? "ok" : r.error.code;
    };
    expect(await code("assets/nodecimals")).toBe("BAD_RESPONSE");
    expect(await code("assets/fractional")).toBe("BAD_RESPONSE");
    expect(await code("assets/unknown")).toBe("NOT_FOUND");
  });

  it("fails with the API's error when it is down", async () => {
    api.failNext(1, 503);
    const r = await fetchDecimals(USDC, "vaults/v1");
    expect(r.ok ? null : r.error.code).toBe("UNAVAILABLE");
  });

  it("gives up with TIMEOUT when the API does not answer", async () => {
    api.stallNext(1);
    const r = await fetchDecimals(USDC, "vaults/v1");
    expect(r.ok ? null : r.error.code).toBe("TIMEOUT");
    expect(api.requests.at(-1)).toMatchObject({ path: `/v2/assets/${USDC.slice("assets/".length)}`, status: "stalled" });
  });

  it("is refused by the API's JWT check when signed with a key it does not know", async () => {
    const stranger = createTestServiceAccount();
    const tokens = createServiceAccountTokenSource({ baseUrl: api.baseUrl, serviceAccountEmail: stranger.email, privateKeyPem: stranger.privateKeyPem });
    const strangerFetch = createDecimalsFetcher(createCustodyGet({ baseUrl: api.baseUrl, tokens, timeoutMs: 2000, retry: { maxAttempts: 1 } }));
    const r = await strangerFetch(USDC, "vaults/v1");
    expect(r.ok).toBe(false);
    expect(api.requests.at(-1)).toMatchObject({ path: `/v2/assets/${USDC.slice("assets/".length)}`, status: 401 });
  });
});
