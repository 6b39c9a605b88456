/**
 * USD prices from the simulated custody API over real HTTP, with its service-account JWT checks
 * (docs/interface.md section 10): one BatchGetAssets per lookup, shared by concurrent lookups, kept
 * at most the max age; absent, zero and non-USD prices unknown; pins for what the platform does not
 * price, ignored where it does; the platform down is unavailable, never a pin.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCustodyGet } from "../../../src/addressbook/custody-http.js";
import { createServiceAccountTokenSource } from "../../../src/addressbook/service-account-token.js";
import { createPriceFetcher } from "../../../src/assets/custody-assets.js";
import { parsePricePins } from "../../../src/assets/price-pins.js";
import { createAssetPrices, type AssetPricesOptions } from "../../../src/assets/prices.js";
import { startFakeCustodyApi, type FakeCustodyApi } from "../../support/fake-custody-api.js";
import { createTestServiceAccount } from "../../support/service-account.js";

const account = createTestServiceAccount();
const VAULT = "vaults/v1";
const ETH = "assets/native.ethereum-mainnet";
const USDC = "assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
const UNPRICED = "assets/erc20.ethereum-mainnet.0x1111111111111111111111111111111111111111";
const ZERO = "assets/erc20.ethereum-mainnet.0x2222222222222222222222222222222222222222";
const EUR = "assets/erc20.ethereum-mainnet.0x3333333333333333333333333333333333333333";
const IMPORTED = "assets/erc20.ethereum-mainnet.0x4444444444444444444444444444444444444444";
const FETCHED_AT = new Date("2026-11-30T10:00:00Z");

const usd = (amount: string, currencyCode = "USD") => ({ convertedValue: { amount, currencyCode } });

describe("USD prices from the custody platform", () => {
  let api: FakeCustodyApi;
  let now = 0;
  const batches = () => api.requests.filter((r) => r.path === "/v2/assets:batchGet");
  const prices = (extra: Partial<AssetPricesOptions> = {}) => {
    const tokens = createServiceAccountTokenSource({ baseUrl: api.baseUrl, serviceAccountEmail: account.email, privateKeyPem: account.privateKeyPem });
    const get = createCustodyGet({ baseUrl: api.baseUrl, tokens, timeoutMs: 2000, retry: { maxAttempts: 1 } });
    return createAssetPrices({ pins: new Map(), fetch: createPriceFetcher(get), maxAgeMs: 60_000, nowMs: () => now, clock: () => FETCHED_AT, ...extra });
  };

  beforeAll(async () => {
    api = await startFakeCustodyApi({ serviceAccountEmail: account.email, publicKey: account.publicKey });
    api.setAsset({ name: ETH, decimals: 18, ...usd("3000.25") });
    api.setAsset({ name: USDC, decimals: 6, ...usd("0.9998") });
    api.setAsset({ name: UNPRICED, decimals: 18 });
    api.setAsset({ name: ZERO, decimals: 18, ...usd("0") });
    api.setAsset({ name: EUR, decimals: 18, ...usd("2.5", "EUR") });
    api.setAsset({ name: IMPORTED, decimals: 9, ...usd("4.5") }, "v1");
  });
  afterAll(() => api.close());
  beforeEach(() => {
    api.requests.length = 0;
    now = 0;
  });

  it("prices several assets in one BatchGetAssets with the service account's token, recording when and from where", async () => {
    const answers = await prices().pricesOf([ETH, USDC], VAULT);
    expect(answers.get(ETH)).toEqual({ known: true, quote: { asset: ETH, usd: "3000.25", fetchedAt: FETCHED_AT.toISOString(), source: "platform" } });
    expect(answers.get(USDC)).toMatchObject({ known: true, quote: { usd: "0.9998", source: "platform" } });
    expect(api.requests.map((r) => [r.path, r.status])).toEqual([["/v2/assets:batchGet", 200]]);
    expect(batches()[0]!.authorization).toMatch(/^Bearer /);
  });

  it("asks GetVaultAsset for an asset the batch leaves out (a token imported into the vault)", async () => {
    expect((await prices().pricesOf([IMPORTED], VAULT)).get(IMPORTED)).toMatchObject({ known: true, quote: { usd: "4.5" } });
    expect(api.requests.map((r) => [r.path, r.status])).toEqual([
      ["/v2/assets:batchGet", 200],
      [`/v2/vaults/v1/assets/${IMPORTED.slice("assets/".length)}`, 200],
    ]);
  });

  it("shares one request between concurrent lookups of the same assets", async () => {
    const source = prices();
    const [a, b, c] = await Promise.all([source.pricesOf([ETH], VAULT), source.pricesOf([ETH, USDC], VAULT), source.pricesOf([USDC], VAULT)]);
    expect([a.get(ETH), b.get(ETH), b.get(USDC), c.get(USDC)].every((p) => p?.known)).toBe(true);
    // The first asks for ETH; the second for USDC alone (ETH is in flight); the third waits for both.
    expect(batches().map((r) => new URL(`${r.path}?${new URLSearchParams(r.query).toString()}`, api.baseUrl).searchParams.getAll("names"))).toEqual([[ETH], [USDC]]);
  });

  it("keeps an answer at most the max age, then asks again", async () => {
    const source = prices({ maxAgeMs: 1_000 });
    await source.pricesOf([ETH], VAULT);
    now = 999;
    await source.pricesOf([ETH], VAULT);
    expect(batches()).toHaveLength(1);
    now = 1_000;
    await source.pricesOf([ETH], VAULT);
    expect(batches()).toHaveLength(2);
  });

  it.each([
    ["no convertedValue", UNPRICED],
    ["a zero price", ZERO],
    ["a price in another currency", EUR],
    ["an asset the platform does not know", "assets/erc20.ethereum-mainnet.0x5555555555555555555555555555555555555555"],
  ])("knows no price for %s, and says so without calling it unavailable", async (_, asset) => {
    expect((await prices().pricesOf([asset], VAULT)).get(asset)).toEqual({ known: false, unavailable: false, reason: expect.stringMatching(/does not price it/) });
  });

  it("uses a pin for an asset the platform does not price, and ignores it with a warning where the platform does", async () => {
    const warnings: unknown[][] = [];
    const { pins } = parsePricePins(JSON.stringify({ [UNPRICED]: "1.00", [ETH]: "1" }));
    const source = prices({ pins, warn: (...args) => warnings.push(args) });
    const answers = await source.pricesOf([UNPRICED, ETH], VAULT);
    expect(answers.get(UNPRICED)).toEqual({ known: true, quote: { asset: UNPRICED, usd: "1", fetchedAt: FETCHED_AT.toISOString(), source: "pin" } });
    expect(answers.get(ETH)).toMatchObject({ known: true, quote: { usd: "3000.25", source: "platform" } });
    expect(warnings).toEqual([[ETH, "3000.25", "1"]]);
  });

  it("does not believe an answer pricing one asset twice, differently", async () => {
    api.answerWith("/v2/assets:batchGet", {
      assets: [
        { name: ETH, ...usd("3000") },
        { name: ETH, ...usd("1") },
      ],
    });
    try {
      expect((await prices().pricesOf([ETH], VAULT)).get(ETH)).toEqual({ known: false, unavailable: true, reason: "custody API: inconsistent" });
    } finally {
      api.answerWith("/v2/assets:batchGet", undefined);
    }
  });

  it("is unavailable while the platform is down, even for a pinned asset, and asks again after a few seconds", async () => {
    const { pins } = parsePricePins(JSON.stringify({ [ETH]: "3000" }));
    const source = prices({ pins });
    api.failNext(1, 503);
    expect((await source.pricesOf([ETH], VAULT)).get(ETH)).toEqual({ known: false, unavailable: true, reason: "custody API: unavailable" });
    now = 5_000;
    expect((await source.pricesOf([ETH], VAULT)).get(ETH)).toMatchObject({ known: true, quote: { source: "platform" } });
  });
});
