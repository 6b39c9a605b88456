import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createCustodyClient, type CustodyClientOptions } from "../../../src/addressbook/custody-client.js";
import { LIST_RESPONSE_FIELDS } from "../../../src/addressbook/custody-schemas.js";
import { createServiceAccountTokenSource, type ServiceAccountTokenSource } from "../../../src/addressbook/service-account-token.js";
import { custodyOpenApi } from "../../support/custody-openapi.js";
import { fakeData, startFakeCustodyApi, type FakeCustodyApi } from "../../support/fake-custody-api.js";
import { createTestServiceAccount } from "../../support/service-account.js";

const account = createTestServiceAccount();

describe("custody API client", () => {
  let api: FakeCustodyApi;
  let sleeps: number[];
  let tokens: ServiceAccountTokenSource;

  beforeAll(async () => {
    api = await startFakeCustodyApi({ serviceAccountEmail: account.email, publicKey: account.publicKey });
    api.setAddressBook(
      "v1",
      Array.from({ length: 2500 }, (_, i) => fakeData.entry("v1", i)),
    );
    api.setWallets("v1", [
      fakeData.wallet("v1", "hot", [{ id: "a1", address: "0xaaaa", network: "networks/ethereum-mainnet" }]),
      fakeData.wallet("v1", "old", [], { archived: true }),
    ]);
  });
  afterAll(() => api.close());
  afterEach(() => {
    api.failNext(0);
    api.stallNext(0);
    api.echoAuthorizationInErrors(false);
  });

  const client = (overrides: Partial<CustodyClientOptions> = {}) => {
    sleeps = [];
    tokens = createServiceAccountTokenSource({ baseUrl: api.baseUrl, serviceAccountEmail: account.email, privateKeyPem: account.privateKeyPem });
    return createCustodyClient({
      baseUrl: api.baseUrl,
      tokens,
      timeoutMs: 2000,
      retry: { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1000 },
      sleep: async (ms) => void sleeps.push(ms),
      ...overrides,
    });
  };
  const requestsFrom = (start: number) => api.requests.slice(start);

  it("reads 2,500 entries over 3 pages of 1000, honouring the page token with the other parameters unchanged", async () => {
    const start = api.requests.length;
    const result = await client().listAddressBookEntries("v1");
    expect(result.ok && result.value.length).toBe(2500);
    if (!result.ok) return;
    expect(new Set(result.value.map((e) => e.name)).size).toBe(2500);
    const pages = requestsFrom(start);
    expect(pages).toHaveLength(3);
    expect(pages.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(pages[0]!.query).toEqual({ pageSize: "1000" });
    expect(pages[1]!.query.pageToken).toBeTruthy();
    expect(pages[2]!.query.pageToken).toBeTruthy();
    expect(pages[2]!.query.pageToken).not.toBe(pages[1]!.query.pageToken);
    for (const p of pages) {
      const { pageToken: _ignored, ...others } = p.query;
      expect(others).toEqual({ pageSize: "1000" });
      expect(p.path).toBe("/v2/vaults/v1/addressBookEntries");
    }
  });

  it("lists wallets with archived ones (showArchived=true) and a wallet's addresses", async () => {
    const start = api.requests.length;
    const wallets = await client().listWallets("v1");
    expect(wallets.ok && wallets.value.map((w) => w.name)).toEqual(["vaults/v1/wallets/hot", "vaults/v1/wallets/old"]);
    expect(requestsFrom(start)[0]!.query).toEqual({ pageSize: "1000", showArchived: "true" });
    const addresses = await client().listWalletAddresses("v1", "hot");
    expect(addresses.ok && addresses.value.map((a) => a.address)).toEqual(["0xaaaa"]);
  });

  it("retries 429 and 500 with growing back-off, then succeeds", async () => {
    const c = client({ random: () => 0.5 });
    api.rateLimitNext(1);
    const afterRateLimit = await c.listWallets("v1");
    expect(afterRateLimit.ok).toBe(true);
    api.failNext(2, 500);
    const afterFailures = await c.listWallets("v1");
    expect(afterFailures.ok).toBe(true);
    // 429 carried Retry-After: 1 (1000 ms); the two 500s back off 75 then 150 ms (equal jitter at 0.5).
    expect(sleeps).toEqual([1000, 75, 150]);
  });

  it("gives up after the last attempt with UNAVAILABLE naming the operation and vault", async () => {
    api.failNext(10, 503);
    const start = api.requests.length;
    const result = await client().listAddressBookEntries("v1");
    expect(requestsFrom(start)).toHaveLength(4);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: "UNAVAILABLE", operation: "ListAddressBookEntries", vault: "vaults/v1", httpStatus: 503, attempts: 4 });
    expect(result.error.message).toMatch(/^ListAddressBookEntries for vaults\/v1 failed \(UNAVAILABLE\): HTTP 503/);
  });

  it("does not retry a 403", async () => {
    const start = api.requests.length;
    const result = await client().listWallets("not-a-member");
    expect(requestsFrom(start)).toHaveLength(1);
    expect(sleeps).toEqual([]);
    expect(!result.ok && result.error).toMatchObject({ code: "PERMISSION_DENIED", operation: "ListWallets", vault: "vaults/not-a-member", attempts: 1 });
  });

  it("times out a stalled request and retries it", async () => {
    api.stallNext(1);
    const start = api.requests.length;
    const result = await client({ timeoutMs: 200 }).listWallets("v1");
    expect(result.ok).toBe(true);
    expect(requestsFrom(start).map((r) => r.status)).toEqual(["stalled", 200]);
  });

  it("reports TIMEOUT when every attempt stalls", async () => {
    api.stallNext(2);
    const result = await client({ timeoutMs: 150, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 } }).listWallets("v1");
    expect(!result.ok && result.error).toMatchObject({ code: "TIMEOUT", operation: "ListWallets", attempts: 2 });
  });

  it("reports NETWORK errors when nothing listens, after retrying", async () => {
    const dead = createCustodyClient({
      baseUrl: "http://127.0.0.1:1",
      tokens: createServiceAccountTokenSource({ baseUrl: "http://127.0.0.1:1", serviceAccountEmail: account.email, privateKeyPem: account.privateKeyPem }),
      retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
      sleep: async () => undefined,
    });
    const result = await dead.listWallets("v1");
    expect(!result.ok && result.error).toMatchObject({ code: "NETWORK", attempts: 3 });
  });

  it("never puts the bearer token in an error, even when the server echoes it", async () => {
    api.echoAuthorizationInErrors(true);
    api.failNext(1, 401);
    const c = client({ retry: { maxAttempts: 1 } });
    const result = await c.listAddressBookEntries("v1");
    const token = api.requests.at(-1)!.authorization!.replace("Bearer ", "");
    expect(token.length).toBeGreaterThan(100);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("UNAUTHENTICATED");
    expect(result.error.message).toContain("[redacted]");
    const everything = `${result.error.message} ${result.error.detail} ${JSON.stringify(result.error)} ${String(result.error.stack)}`;
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(token.split(".")[2]!);
  });

  it("stops a server that pages forever", async () => {
    let n = 0;
    const endless: typeof fetch = async () => new Response(JSON.stringify({ addressBookEntries: [], nextPageToken: `t${n++}` }), { status: 200 });
    const result = await client({ fetch: endless, maxPages: 5 }).listAddressBookEntries("v1");
    expect(n).toBe(5);
    expect(!result.ok && result.error).toMatchObject({ code: "PAGING", operation: "ListAddressBookEntries" });
  });

  it("stops a server that repeats a page token", async () => {
    const loop: typeof fetch = async () => new Response(JSON.stringify({ addressBookEntries: [], nextPageToken: "same" }), { status: 200 });
    const result = await client({ fetch: loop }).listAddressBookEntries("v1");
    expect(!result.ok && result.error).toMatchObject({ code: "PAGING" });
  });

  it("refuses an answer without the documented shape, without retrying", async () => {
    let calls = 0;
    const broken: typeof fetch = async () => {
      calls++;
      return new Response(JSON.stringify({ addressBookEntries: [{ name: "vaults/v1/addressBookEntries/e", address: 5 }] }), { status: 200 });
    };
    const result = await client({ fetch: broken }).listAddressBookEntries("v1");
    expect(calls).toBe(1);
    expect(!result.ok && result.error).toMatchObject({ code: "BAD_RESPONSE", vault: "vaults/v1" });
    expect(!result.ok && result.error.message).toMatch(/addressBookEntries\.0\.address/);
  });

  // An answer was read into memory whole, whatever its size.
  it("refuses an answer larger than the limit, declared or streamed, without retrying", async () => {
    api.setAddressBook("big", [fakeData.entry("big", 0, { displayName: "x".repeat(200_000) })]);
    const start = api.requests.length;
    const declared = await client({ maxResponseBytes: 100_000 }).listAddressBookEntries("big");
    expect(!declared.ok && declared.error).toMatchObject({ code: "BAD_RESPONSE", vault: "vaults/big", attempts: 1 });
    expect(!declared.ok && declared.error.message).toMatch(/larger than 100000 bytes/);
    expect(requestsFrom(start)).toHaveLength(1);
    expect((await client().listAddressBookEntries("big")).ok).toBe(true);

    // No Content-Length: the body is counted as it arrives, and the rest is not read.
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"addressBookEntries": [], "filler": "');
      res.write("y".repeat(150_000));
      res.end('"}');
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const streamed = await client({ baseUrl: url, maxResponseBytes: 100_000 }).listAddressBookEntries("v1");
      expect(!streamed.ok && streamed.error).toMatchObject({ code: "BAD_RESPONSE", attempts: 1 });
      expect((await client({ baseUrl: url }).listAddressBookEntries("v1")).ok).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("keeps unknown fields out of the way (allowed, not required)", async () => {
    const extra: typeof fetch = async () =>
      new Response(JSON.stringify({ wallets: [{ name: "vaults/v1/wallets/w", displayName: "w", networks: [], futureField: { x: 1 } }], totalSize: 1 }), { status: 200 });
    const result = await client({ fetch: extra }).listWallets("v1");
    expect(result.ok && result.value).toEqual([{ name: "vaults/v1/wallets/w", displayName: "w" }]);
  });

  // A page holding none of these fields but others is refused as NOT_A_LIST (sync.test.ts), so they
  // must be every field the published document gives each list response, or a documented answer
  // holding only a new one would fail the sync.
  it.each([
    ["ListAddressBookEntries", "v2ListAddressBookEntriesResponse"],
    ["ListWallets", "v2ListWalletsResponse"],
    ["ListWalletAddresses", "v2ListWalletAddressesResponse"],
  ] as const)("knows every top-level field of %s's answer in the OpenAPI document", (operation, schema) => {
    const documented = Object.keys(custodyOpenApi().schemas[schema]?.properties ?? {}).sort();
    expect(documented.length).toBeGreaterThan(0);
    expect([...LIST_RESPONSE_FIELDS[operation]].sort()).toEqual(documented);
  });
});
