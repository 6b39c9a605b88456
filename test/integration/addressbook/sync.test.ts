import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createCustodyClient, type CustodyClient } from "../../../src/addressbook/custody-client.js";
import { createServiceAccountTokenSource } from "../../../src/addressbook/service-account-token.js";
import { readVaultView } from "../../../src/addressbook/store.js";
import { createAddressBookSync, syncVault } from "../../../src/addressbook/sync.js";
import type { Db } from "../../../src/database.js";
import { fakeData, startFakeCustodyApi, type FakeCustodyApi } from "../../support/fake-custody-api.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { createTestServiceAccount, type TestServiceAccount } from "../../support/service-account.js";

const account = createTestServiceAccount();
const stranger = createTestServiceAccount();
const T0 = new Date("2026-11-21T12:00:00Z");

describe("address-book sync", () => {
  let tdb: TestDatabase;
  let db: Db;
  let api: FakeCustodyApi;
  // Moves forward between tests: the store drops a copy fetched before the stored one.
  let now = T0;
  const clock = () => now;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    db = tdb.handle.db;
    api = await startFakeCustodyApi({ serviceAccountEmail: account.email, publicKey: account.publicKey });
  });
  afterAll(async () => {
    await api.close();
    await tdb.drop();
  });
  beforeEach(() => {
    now = new Date(now.getTime() + 3600_000);
    api.failNext(0);
    api.setAddressBook(
      "v1",
      Array.from({ length: 2500 }, (_, i) => fakeData.entry("v1", i)),
    );
    api.setWallets("v1", [
      fakeData.wallet("v1", "hot", [
        { id: "eth", address: "0xHotHotHotHotHotHotHotHotHotHotHotHotHot0", network: "networks/ethereum-mainnet" },
        { id: "sol", address: "So1anaHot111111111111111111111111111111111", network: "networks/solana-mainnet" },
      ]),
      fakeData.wallet("v1", "old", [{ id: "btc", address: "bc1qarchived", network: "networks/bitcoin-mainnet" }], { archived: true }),
      fakeData.wallet("v1", "tracked", [{ id: "x", address: "0xexternal", network: "networks/ethereum-mainnet" }], { external: true }),
    ]);
  });

  const clientFor = (options: { key?: TestServiceAccount; audienceBase?: string; tokenClock?: () => Date } = {}): CustodyClient =>
    createCustodyClient({
      baseUrl: api.baseUrl,
      tokens: createServiceAccountTokenSource({
        baseUrl: options.audienceBase ?? api.baseUrl,
        serviceAccountEmail: account.email,
        privateKeyPem: (options.key ?? account).privateKeyPem,
        ...(options.tokenClock ? { now: options.tokenClock } : {}),
      }),
      retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
      sleep: async () => undefined,
    });

  it("copies 2,500 entries and the own addresses of custodied wallets (archived included, external not)", async () => {
    const start = api.requests.length;
    const result = await syncVault({ db, client: clientFor(), clock }, "v1");
    expect(result).toEqual({ ok: true, value: { vault: "vaults/v1", outcome: "replaced", generation: 1, entries: 2500, ownAddresses: 3, syncedAt: now } });
    const view = await readVaultView(db, "v1", true);
    expect(view.entries).toHaveLength(2500);
    expect(view.entries.find((e) => e.name === "vaults/v1/addressBookEntries/e7")).toEqual({
      name: "vaults/v1/addressBookEntries/e7",
      displayName: "Entry 7",
      address: `0x${"7".padStart(40, "0")}`,
      network: "ethereum-mainnet",
      signed: true,
    });
    expect(view.ownAddresses.map((a) => `${a.wallet}|${a.network}|${a.address}`).sort()).toEqual([
      "vaults/v1/wallets/hot|ethereum-mainnet|0xHotHotHotHotHotHotHotHotHotHotHotHotHot0",
      "vaults/v1/wallets/hot|solana-mainnet|So1anaHot111111111111111111111111111111111",
      "vaults/v1/wallets/old|bitcoin-mainnet|bc1qarchived",
    ]);
    // The external wallet's addresses are not the vault's own, and its name is kept as external.
    expect(view.externalWallets).toEqual(["vaults/v1/wallets/tracked"]);
    // The custodied wallets (archived included) are listed by name: the only names that are internal.
    expect(view.wallets).toEqual(["vaults/v1/wallets/hot", "vaults/v1/wallets/old"]);
    const paths = api.requests.slice(start).map((r) => r.path);
    expect(paths.filter((p) => p.endsWith("/addressBookEntries"))).toHaveLength(3);
    expect(paths).not.toContain("/v2/vaults/v1/wallets/tracked/addresses");
  });

  it.each([
    ["a token signed with another key", () => clientFor({ key: stranger })],
    ["an expired token", () => clientFor({ tokenClock: () => new Date(Date.now() - 2 * 3600_000) })],
    ["a token for another audience", () => clientFor({ audienceBase: "https://custody.example.test" })],
  ])("fails on %s with a clear error and keeps the previous copy", async (_, badClient) => {
    await syncVault({ db, client: clientFor(), clock }, "v1");
    const before = await readVaultView(db, "v1", true);
    api.setAddressBook("v1", [fakeData.entry("v1", 1)]);
    now = new Date(now.getTime() + 60_000);
    const result = await syncVault({ db, client: badClient(), clock }, "v1");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: "UNAUTHENTICATED", operation: "ListAddressBookEntries", vault: "vaults/v1", attempts: 1 });
    expect(result.error.message).toMatch(/^ListAddressBookEntries for vaults\/v1 failed \(UNAUTHENTICATED\): HTTP 401: invalid token/);
    expect(await readVaultView(db, "v1", true)).toEqual(before);
    const sync = createAddressBookSync({ db, client: badClient(), vaults: ["v1"], refreshSeconds: 60, clock });
    const [status] = await sync.status();
    expect(status!.lastError).toMatchObject({ code: "UNAUTHENTICATED", at: now });
    expect(status!.syncedAt).toEqual(before.syncedAt);
  });

  it("refuses an answer naming resources of another vault and keeps the copy", async () => {
    await syncVault({ db, client: clientFor(), clock }, "v1");
    api.setAddressBook("v1", [fakeData.entry("v1", 1), { ...fakeData.entry("v1", 2), name: "vaults/other/addressBookEntries/e2" }]);
    const result = await syncVault({ db, client: clientFor(), clock }, "v1");
    expect(!result.ok && result.error).toMatchObject({ code: "INCONSISTENT", vault: "vaults/v1" });
    expect((await readVaultView(db, "v1", true)).entries).toHaveLength(2500);
  });

  it("refuses an external wallet named under another vault and keeps the copy", async () => {
    await syncVault({ db, client: clientFor(), clock }, "v1");
    api.setWallets("v1", [fakeData.wallet("v1", "x", [], { name: "vaults/other/wallets/x", external: true })]);
    const result = await syncVault({ db, client: clientFor(), clock }, "v1");
    expect(!result.ok && result.error).toMatchObject({ code: "INCONSISTENT", operation: "ListWallets", vault: "vaults/v1" });
    expect((await readVaultView(db, "v1", true)).externalWallets).toEqual(["vaults/v1/wallets/tracked"]);
  });

  it("a failing wallet-address read fails the whole sync (no copy without some own addresses)", async () => {
    await syncVault({ db, client: clientFor(), clock }, "v1");
    api.setAddressBook("v1", [fakeData.entry("v1", 1)]);
    const gated = clientFor();
    const failing: CustodyClient = {
      ...gated,
      listWalletAddresses: async (v, w) => (w === "old" ? (api.failNext(3, 500), gated.listWalletAddresses(v, w)) : gated.listWalletAddresses(v, w)),
    };
    const result = await syncVault({ db, client: failing, clock, walletConcurrency: 1 }, "v1");
    expect(!result.ok && result.error).toMatchObject({ code: "UNAVAILABLE", operation: "ListWalletAddresses" });
    expect((await readVaultView(db, "v1", true)).entries).toHaveLength(2500);
  });

  // The list fields are optional (a JSON gateway over protobuf leaves an empty
  // list out), so a misrouted gateway's 200 google.rpc.Status was stored as an empty address book
  // (or no wallets), and the transfers that only the copy allowed were denied instead of deferred.
  it.each([
    ["the address book", "/v2/vaults/v1/addressBookEntries", "ListAddressBookEntries"],
    ["the wallets", "/v2/vaults/v1/wallets", "ListWallets"],
    ["a wallet's addresses", "/v2/vaults/v1/wallets/hot/addresses", "ListWalletAddresses"],
  ])("refuses a 200 error status in place of %s (NOT_A_LIST) and keeps the copy", async (_, path, operation) => {
    await syncVault({ db, client: clientFor(), clock }, "v1");
    const before = await readVaultView(db, "v1", true);
    now = new Date(now.getTime() + 60_000);
    api.answerWith(path, { code: 8, message: "Resource has been exhausted (e.g. check quota).", details: [] });
    try {
      const start = api.requests.length;
      const result = await syncVault({ db, client: clientFor(), clock }, "v1");
      expect(!result.ok && result.error).toMatchObject({ code: "NOT_A_LIST", operation, vault: "vaults/v1", attempts: 1 });
      expect(!result.ok && result.error.message).toMatch(/holds none of .*nextPageToken, totalSize/);
      expect(api.requests.slice(start).filter((r) => r.path === path)).toHaveLength(1);
      expect(await readVaultView(db, "v1", true)).toEqual(before);
      const [status] = await createAddressBookSync({ db, client: clientFor(), vaults: ["v1"], refreshSeconds: 60, clock }).status();
      expect(status!.lastError).toMatchObject({ code: "NOT_A_LIST", at: now });
      expect(status!.syncedAt).toEqual(before.syncedAt);
    } finally {
      api.answerWith(path, undefined);
    }
  });

  it.each<[string, Record<string, unknown>]>([
    ["{} (how the gateway writes an empty list)", {}],
    ["the list alone", { addressBookEntries: [] }],
    ["totalSize alone", { totalSize: 0 }],
    ["an empty nextPageToken alone", { nextPageToken: "" }],
    ["the list beside a field the document does not name", { addressBookEntries: [], futureField: 1 }],
  ])("reads a page holding %s as an empty list", async (_, body) => {
    api.answerWith("/v2/vaults/v1/addressBookEntries", body);
    try {
      const result = await syncVault({ db, client: clientFor(), clock }, "v1");
      expect(result.ok && result.value.entries).toBe(0);
    } finally {
      api.answerWith("/v2/vaults/v1/addressBookEntries", undefined);
    }
  });

  // Only one answer's bytes (16 MiB) were bounded, so up to 1,000 pages of
  // inflated items a list, and a list per wallet, could fill the memory of the deciding process.
  it.each([
    ["the address book", "/v2/vaults/v1/addressBookEntries", "ListAddressBookEntries", { addressBookEntries: Array.from({ length: 1001 }, (_, i) => fakeData.entry("v1", i)) }],
    [
      "a wallet's addresses",
      "/v2/vaults/v1/wallets/hot/addresses",
      "ListWalletAddresses",
      fakeData.wallet(
        "v1",
        "hot",
        Array.from({ length: 1001 }, (_, i) => ({ id: `a${i}`, address: `0x${i}`, network: "networks/ethereum-mainnet" })),
      ),
    ],
  ] as const)("refuses a page of %s holding more items than the pageSize asked for (TOO_LARGE) and keeps the copy", async (_, path, operation, page) => {
    await syncVault({ db, client: clientFor(), clock }, "v1");
    const before = await readVaultView(db, "v1", true);
    now = new Date(now.getTime() + 60_000);
    api.answerWith(path, "addresses" in page ? { walletAddresses: page.addresses } : page);
    try {
      const result = await syncVault({ db, client: clientFor(), clock }, "v1");
      expect(!result.ok && result.error).toMatchObject({ code: "TOO_LARGE", operation, vault: "vaults/v1", attempts: 1 });
      expect(!result.ok && result.error.message).toMatch(/page 1 holds 1001 items, more than the 1000 asked for/);
      expect(await readVaultView(db, "v1", true)).toEqual(before);
    } finally {
      api.answerWith(path, undefined);
    }
  });

  it("fails a sync past its total items, entries, wallets and wallet addresses together (TOO_LARGE), and keeps the copy", async () => {
    await syncVault({ db, client: clientFor(), clock }, "v1");
    const before = await readVaultView(db, "v1", true);
    api.setAddressBook(
      "v1",
      Array.from({ length: 2400 }, (_, i) => fakeData.entry("v1", i)),
    );
    now = new Date(now.getTime() + 60_000);
    // 2,400 entries, 3 wallets, 2 + 1 addresses of the custodied ones: 2,406 items.
    const over = await syncVault({ db, client: clientFor(), clock, limits: { maxItems: 2405 } }, "v1");
    expect(!over.ok && over.error).toMatchObject({ code: "TOO_LARGE", operation: "ListWalletAddresses", vault: "vaults/v1" });
    expect(!over.ok && over.error.message).toMatch(/past 2405 items in all/);
    expect(await readVaultView(db, "v1", true)).toEqual(before);
    const [status] = await createAddressBookSync({ db, client: clientFor(), vaults: ["v1"], refreshSeconds: 60, clock }).status();
    expect(status!.lastError).toMatchObject({ code: "TOO_LARGE", at: now });
    const within = await syncVault({ db, client: clientFor(), clock, limits: { maxItems: 2406 } }, "v1");
    expect(within.ok && within.value.entries).toBe(2400);
  });

  it("fails a sync past its total bytes (TOO_LARGE) though each answer is under the per-answer limit, and keeps the copy", async () => {
    await syncVault({ db, client: clientFor(), clock }, "v1");
    const before = await readVaultView(db, "v1", true);
    api.setAddressBook(
      "v1",
      Array.from({ length: 2500 }, (_, i) => fakeData.entry("v1", i, { displayName: "x".repeat(1000) })),
    );
    now = new Date(now.getTime() + 60_000);
    const start = api.requests.length;
    // Three pages of about 1.2 MB each: the second takes the sync past 2 MB.
    const result = await syncVault({ db, client: clientFor(), clock, limits: { maxBytes: 2_000_000 } }, "v1");
    expect(!result.ok && result.error).toMatchObject({ code: "TOO_LARGE", operation: "ListAddressBookEntries", vault: "vaults/v1", attempts: 1 });
    expect(!result.ok && result.error.message).toMatch(/passed 2000000 bytes in all/);
    expect(api.requests.slice(start)).toHaveLength(2);
    expect(await readVaultView(db, "v1", true)).toEqual(before);
    expect((await syncVault({ db, client: clientFor(), clock, limits: { maxBytes: 4_000_000 } }, "v1")).ok).toBe(true);
  });

  it("runs every refresh period without overlapping, and stops", async () => {
    const timers: { run: () => void; ms: number; cancelled: boolean }[] = [];
    const schedule = (run: () => void, ms: number) => {
      const t = { run, ms, cancelled: false };
      timers.push(t);
      return { cancel: () => void (t.cancelled = true) };
    };
    const results: string[] = [];
    const sync = createAddressBookSync({
      db,
      client: clientFor(),
      vaults: ["v1"],
      refreshSeconds: 60,
      clock,
      schedule,
      onResult: (r) => results.push(r.ok ? r.value.outcome : r.error.code),
    });
    const start = api.requests.length;
    sync.start();
    sync.start(); // a second start is ignored
    await sync.syncAll(); // joins the run in progress
    await waitFor(() => timers.length === 1);
    expect(api.requests.slice(start).filter((r) => r.path.endsWith("/addressBookEntries"))).toHaveLength(3);
    expect(timers[0]!.ms).toBe(60_000);
    now = new Date(now.getTime() + 60_000);
    timers[0]!.run();
    await waitFor(() => timers.length === 2);
    expect(results).toHaveLength(2);
    await sync.stop();
    expect(timers[1]!.cancelled).toBe(true);
  });

  it("syncWallets reads again after a sync already in progress, once for many events", async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const base = clientFor();
    let entryReads = 0;
    const slow: CustodyClient = {
      ...base,
      listAddressBookEntries: async (v) => {
        entryReads++;
        if (entryReads === 1) await gate;
        return base.listAddressBookEntries(v);
      },
    };
    const sync = createAddressBookSync({ db, client: slow, vaults: ["v1"], refreshSeconds: 60, clock });
    const running = sync.syncAll();
    const afterEvents = [sync.syncWallets("vaults/v1"), sync.syncWallets("v1")];
    api.setWallets("v1", [fakeData.wallet("v1", "new", [{ id: "a", address: "0xnew", network: "networks/ethereum-mainnet" }])]);
    release();
    await running;
    const [a, b] = await Promise.all(afterEvents);
    expect(a).toBe(b);
    expect(a).toMatchObject({ ok: true, value: { outcome: expect.stringMatching(/replaced|unchanged/) } });
    expect(entryReads).toBe(2);
    expect((await readVaultView(db, "v1", true)).ownAddresses.map((x) => x.address)).toEqual(["0xnew"]);
    expect(await sync.syncWallets("vaults/not-configured")).toBeNull();
  });
});

/** Once a condition the code under test reaches asynchronously holds (polled, not a timing assertion). */
const waitFor = (condition: () => boolean) => vi.waitFor(() => expect(condition()).toBe(true), { timeout: 30_000, interval: 5 });
