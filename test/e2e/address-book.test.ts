/**
 * The address book end to end: the real service, its background sync against the fake custody
 * API, the example policy, and the co-signer's view of the answers. The sync's timer is set to 1h
 * so it never fires during a test; each test triggers `syncAll()` itself. Decision time comes from
 * an injected clock, so "older than the maximum age" needs no waiting.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assetTransfer, HOT_WALLET, VAULT, transactionName } from "../support/bodies.js";
import { CosignerSimulator, type Delivery } from "../support/cosigner.js";
import { fakeData, LIST_PATHS, startFakeCustodyApi, type FakeCustodyApi } from "../support/fake-custody-api.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { createTestServiceAccount, writeTempPem } from "../support/service-account.js";
import { readExample, startTestService } from "../support/service.js";

const VAULT_ID = VAULT.slice("vaults/".length);
const ETH_NETWORK = "networks/ethereum-mainnet";
/** The example body's destination and source (policies/tests/transactions/api-shape-token-transfer.json). */
const EXCHANGE_ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7";
const HOT_ADDRESS = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
const COLD_ADDRESS = `0x${"c0".repeat(20)}`;
const TRACKED_ADDRESS = `0x${"ee".repeat(20)}`;
const UNKNOWN_ADDRESS = `0x${"11".repeat(20)}`;
const TRACKED_WALLET = `${VAULT}/wallets/tracked01`;
const ENTRY_NAME = `${VAULT}/addressBookEntries/exchange`;
const MAX_AGE_SECONDS = 900;
const T0 = new Date("2026-11-21T12:00:00Z");
const UNTRUSTED = "The destination is neither an approved address-book entry nor a wallet of this vault";

/** The vault as the fake API serves it: one signed entry, two custodied wallets, one external. */
function serveVault(api: FakeCustodyApi, extraWallets: ReturnType<typeof fakeData.wallet>[] = []): void {
  api.setAddressBook(VAULT_ID, [fakeData.entry(VAULT_ID, 0, { name: ENTRY_NAME, address: EXCHANGE_ADDRESS, displayName: "Exchange" })]);
  api.setWallets(VAULT_ID, [
    fakeData.wallet(VAULT_ID, HOT_WALLET.split("/").at(-1)!, [{ id: "a0", address: HOT_ADDRESS, network: ETH_NETWORK }]),
    fakeData.wallet(VAULT_ID, "cold0001", [{ id: "a0", address: COLD_ADDRESS, network: ETH_NETWORK }]),
    // Tracked, not controlled by the platform: its name and address must not count as internal.
    fakeData.wallet(VAULT_ID, "tracked01", [{ id: "a0", address: TRACKED_ADDRESS, network: ETH_NETWORK }], { external: true }),
    ...extraWallets,
  ]);
}

/** The example USDC transfer (120.5) under a fresh name, to `destination`. */
function usdcTransfer(destination: string, name = transactionName("ab")) {
  const body = readExample("api-shape-token-transfer.json") as { name: string; transfers: { destinationAddress: { value: string } }[] };
  body.name = name;
  body.transfers[0]!.destinationAddress.value = destination;
  return body;
}

interface Harness {
  tdb: TestDatabase;
  api: FakeCustodyApi;
  service: Awaited<ReturnType<typeof startTestService>>;
  cosigner: CosignerSimulator;
  /** Moves the service's clock. */
  setNow(at: Date): void;
  stop(): Promise<void>;
}

/** A service syncing VAULT from a fake API; `beforeStart` runs before the service's first sync. */
async function startHarness(beforeStart: (api: FakeCustodyApi) => void = () => undefined, env: Record<string, string> = {}): Promise<Harness> {
  const tdb = await createTestDatabase();
  const account = createTestServiceAccount();
  const api = await startFakeCustodyApi({ serviceAccountEmail: account.email, publicKey: account.publicKey });
  serveVault(api);
  beforeStart(api);
  const key = writeTempPem(account.privateKeyPem);
  let now = T0;
  const service = await startTestService({
    database: tdb.handle,
    clock: () => now,
    env: {
      COUNTERSIGN_API_URL: api.baseUrl,
      COUNTERSIGN_SERVICE_ACCOUNT_EMAIL: account.email,
      COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE: key.path,
      COUNTERSIGN_VAULTS: VAULT_ID,
      COUNTERSIGN_ADDRESS_BOOK_REFRESH: "1h",
      COUNTERSIGN_ADDRESS_BOOK_MAX_AGE: `${MAX_AGE_SECONDS}s`,
      COUNTERSIGN_ADMIN_TOKEN: ADMIN_TOKEN,
      ...env,
    },
  });
  return {
    tdb,
    api,
    service,
    cosigner: new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook`, platform: api }),
    setNow: (at) => void (now = at),
    stop: async () => {
      await service.stop();
      await api.close();
      await tdb.drop();
      key.remove();
    },
  };
}

const rowsFor = (h: Harness, name: string) => h.tdb.handle.db.selectFrom("decisions").selectAll().where("transaction_name", "=", name).orderBy("seq").execute();

const ADMIN_TOKEN = "address-book-admin-token";

async function getJson(url: string, bearer?: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, bearer === undefined ? {} : { headers: { authorization: `Bearer ${bearer}` } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const syncedOk = async (h: Harness) => expect((await h.service.background.sync!.syncAll()).map((r) => r.ok)).toEqual([true]);

/** A DEFERRED answer whose message and recorded row both give `reason`. */
async function expectStaleDefer(h: Harness, delivery: Delivery, name: string, reason: RegExp): Promise<void> {
  expect(delivery).toMatchObject({ verdict: "pending", status: 503 });
  expect(delivery.headers?.get("retry-after")).toMatch(/^[0-9]+$/);
  const error = (delivery.body as { error: { code: string; message: string } }).error;
  expect(error.code).toBe("DEFERRED");
  expect(error.message).toMatch(reason);
  const rows = await rowsFor(h, name);
  expect(rows.at(-1)).toMatchObject({ decision: "defer", sign_transaction: null, http_status: 503, replayed: false, matched_rules: [] });
  expect(rows.at(-1)!.reasons).toEqual([expect.stringMatching(reason)]);
}

describe("address book end to end: the example policy on a synced copy", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await syncedOk(h);
  });
  afterAll(() => h?.stop());

  const destinationFacts = async (name: string) => {
    const [row] = await rowsFor(h, name);
    return (row!.facts as { transfer: { destination: Record<string, unknown> } }[])[0]!.transfer.destination;
  };

  it("allows a small USDC transfer to an address-book entry served by the API", async () => {
    const body = usdcTransfer(EXCHANGE_ADDRESS);
    const delivery = await h.cosigner.deliver(body);
    expect(delivery.verdict).toBe("signed");
    const [row] = await rowsFor(h, body.name);
    expect(row).toMatchObject({ decision: "allow", matched_rules: [{ rule: "trusted-destination", decision: "allow", transfer: 0 }] });
    expect(await destinationFacts(body.name)).toMatchObject({
      inAddressBook: true,
      internal: false,
      addressBook: { name: ENTRY_NAME, displayName: "Exchange", network: "ethereum-mainnet", signed: true },
    });
  });

  it("denies the same transfer to an address the API does not know", async () => {
    const delivery = await h.cosigner.deliver(usdcTransfer(UNKNOWN_ADDRESS));
    expect(delivery.verdict).toBe("canceled");
    expect(delivery.body).toMatchObject({ signTransaction: false, reasons: [UNTRUSTED] });
  });

  it("allows a raw destination that is one of the vault's own wallet addresses (internal)", async () => {
    const body = usdcTransfer(COLD_ADDRESS.toUpperCase().replace("0X", "0x"));
    expect((await h.cosigner.deliver(body)).verdict).toBe("signed");
    expect(await destinationFacts(body.name)).toMatchObject({ internal: true, wallet: `${VAULT}/wallets/cold0001`, inAddressBook: false });
  });

  it.each([
    ["its wallet name", TRACKED_WALLET],
    ["its wallet-address name", `${TRACKED_WALLET}/addresses/a0`],
    ["its raw address", TRACKED_ADDRESS],
  ])("denies a transfer to an external wallet by %s: it leaves custody", async (_, destination) => {
    const body = usdcTransfer(destination);
    const delivery = await h.cosigner.deliver(body);
    expect(delivery.verdict).toBe("canceled");
    expect(delivery.body).toMatchObject({ reasons: [UNTRUSTED] });
    expect(await destinationFacts(body.name)).toMatchObject({ internal: false, inAddressBook: false });
  });

  it("still allows a transfer to a custodied wallet of the vault named outright", async () => {
    expect((await h.cosigner.deliver(usdcTransfer(`${VAULT}/wallets/cold0001`))).verdict).toBe("signed");
  });
});

describe("address book end to end: internal means known to the synced copy", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await syncedOk(h);
  });
  afterAll(() => h?.stop());

  it("a wallet name of the vault the copy does not know is not internal, until a sync finds the wallet", async () => {
    const fresh = `${VAULT}/wallets/fresh01`;
    const before = usdcTransfer(fresh);
    const denied = await h.cosigner.deliver(before);
    expect(denied.verdict).toBe("canceled");
    expect(denied.body).toMatchObject({ reasons: [UNTRUSTED] });
    const [row] = await rowsFor(h, before.name);
    expect((row!.facts as { transfer: { destination: unknown } }[])[0]!.transfer.destination).toMatchObject({ wallet: fresh, internal: false });

    // The wallet is created on the platform; the next sync lists it, and a new transfer there is internal.
    serveVault(h.api, [fakeData.wallet(VAULT_ID, "fresh01", [])]);
    await syncedOk(h);
    expect((await h.cosigner.deliver(usdcTransfer(fresh))).verdict).toBe("signed");
  });

  // The API marks `signed` "output only"; a JSON gateway over protobuf leaves a
  // false boolean out, and an entry without the field counted as approved.
  it("an entry the API serves without `signed` (or with null) does not count until it is signed", async () => {
    const pending = `0x${"5e".repeat(20)}`;
    const unsigned = `0x${"5f".repeat(20)}`;
    const entries = (signedNow: boolean) => [
      fakeData.entry(VAULT_ID, 0, { name: ENTRY_NAME, address: EXCHANGE_ADDRESS, displayName: "Exchange" }),
      { ...fakeData.entry(VAULT_ID, 1, { address: pending }), signed: signedNow ? true : undefined },
      fakeData.entry(VAULT_ID, 2, { address: unsigned, signed: null }),
    ];
    h.api.setAddressBook(VAULT_ID, entries(false));
    await syncedOk(h);
    for (const address of [pending, unsigned]) {
      const delivery = await h.cosigner.deliver(usdcTransfer(address));
      expect(delivery.body).toMatchObject({ signTransaction: false, reasons: [UNTRUSTED] });
    }
    h.api.setAddressBook(VAULT_ID, entries(true));
    await syncedOk(h);
    expect((await h.cosigner.deliver(usdcTransfer(pending))).verdict).toBe("signed");
    serveVault(h.api);
    await syncedOk(h);
  });

  it("a vault that this service does not sync defers, naming COUNTERSIGN_VAULTS, and records why", async () => {
    const other = "vaults/notsynced01";
    const body = assetTransfer({ name: `${other}/transactions/t1`, source: `${other}/wallets/a`, destination: `${other}/wallets/b` });
    await expectStaleDefer(
      h,
      await h.cosigner.deliver(body),
      body.name,
      /vaults\/notsynced01 is not among the vaults whose address books this service syncs \(COUNTERSIGN_VAULTS\)/,
    );
  });
});

describe("without address-book sync", () => {
  it("a wallet name of the vault is internal by name, and GET /v1/policy says which rule is in force", async () => {
    const tdb = await createTestDatabase();
    const service = await startTestService({ database: tdb.handle });
    try {
      const cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
      expect((await cosigner.deliver(usdcTransfer(`${VAULT}/wallets/anything`))).verdict).toBe("signed");
      const policy = await getJson(`${service.url}/v1/policy`);
      expect(policy.body.addressBook).toEqual({ configured: false, internal: expect.stringMatching(/^wallet name: /) });
    } finally {
      await service.stop();
      await tdb.drop();
    }
  });
});

describe("address book end to end: the custody API down past the maximum age", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    await syncedOk(h);
  });
  afterAll(() => h?.stop());

  it("defers with the stale copy named, is not ready, reports the error, and recovers without a restart", async () => {
    const name = transactionName("stale");
    expect((await h.cosigner.deliver(usdcTransfer(EXCHANGE_ADDRESS, transactionName("fresh")))).verdict).toBe("signed");

    // The API fails every list request (503, retried by the client, then given up) ...
    h.api.failNext(1_000_000, 503, LIST_PATHS); // the lists only: GetTransaction still answers
    const late = new Date(T0.getTime() + (MAX_AGE_SECONDS + 1) * 1000);
    h.setNow(late);
    const [failed] = await h.service.background.sync!.syncAll();
    expect(failed).toMatchObject({ ok: false, error: { code: "UNAVAILABLE", vault: VAULT } });

    // ... so the copy from T0 is 901 s old: a transfer that would be allowed defers instead.
    const stale = new RegExp(`address book of ${VAULT} was last synced ${MAX_AGE_SECONDS + 1}s ago \\(maximum ${MAX_AGE_SECONDS}s\\)`);
    await expectStaleDefer(h, await h.cosigner.deliver(usdcTransfer(EXCHANGE_ADDRESS, name)), name, stale);

    const ready = await getJson(`${h.service.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: "not ready", checks: { database: "ok", addressBook: expect.stringMatching(stale) } });

    // Open to anyone: what failed, in words naming no host and no server text.
    const open = await getJson(`${h.service.url}/v1/policy`);
    const openVault = (open.body.addressBook as { vaults: { lastError: unknown }[] }).vaults[0];
    expect(openVault?.lastError).toEqual({
      code: "UNAVAILABLE",
      message: "the custody API kept answering with a server error (details with the admin token, or in the log)",
      at: late.toISOString(),
    });
    expect(JSON.stringify(open.body.addressBook)).not.toMatch(/127\.0\.0\.1|HTTP 503/);

    // With the admin token, the failure in its own words.
    const policy = await getJson(`${h.service.url}/v1/policy`, ADMIN_TOKEN);
    expect(policy.body.addressBook).toEqual({
      configured: true,
      internal: expect.stringMatching(/^synced copy: /),
      vaults: [
        expect.objectContaining({
          vault: VAULT,
          syncedAt: T0.toISOString(),
          ageSeconds: MAX_AGE_SECONDS + 1,
          stale: true,
          staleReason: expect.stringMatching(stale),
          lastAttemptAt: late.toISOString(),
          lastError: {
            code: "UNAVAILABLE",
            message: expect.stringMatching(/^ListAddressBookEntries for vaults\/5c3f1a2b9d7e failed \(UNAVAILABLE\): HTTP 503/),
            at: late.toISOString(),
          },
          entryCount: 1,
          ownAddressCount: 2,
        }),
      ],
    });

    // The API answers again: one sync, and the same pending transaction is decided (defers are not final).
    h.api.failNext(0);
    await syncedOk(h);
    const retried = await h.cosigner.deliver(usdcTransfer(EXCHANGE_ADDRESS, name));
    expect(retried).toMatchObject({ verdict: "signed", status: 200 });
    expect((await rowsFor(h, name)).map((r) => [r.decision, r.http_status])).toEqual([
      ["defer", 503],
      ["allow", 200],
    ]);
    expect((await getJson(`${h.service.url}/readyz`)).status).toBe(200);
    const recovered = await getJson(`${h.service.url}/v1/policy`);
    expect((recovered.body.addressBook as { vaults: unknown[] }).vaults[0]).toMatchObject({ stale: false, lastError: null, syncedAt: late.toISOString() });
  });
});

describe("address book end to end: never synced (the API fails from the start)", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness((api) => api.failNext(1_000_000, 503, LIST_PATHS));
    // Joins the sync the service started: it fails like every other.
    expect((await h.service.background.sync!.syncAll()).map((r) => r.ok)).toEqual([false]);
  });
  afterAll(() => h?.stop());

  it.each([
    ["an address-book entry", EXCHANGE_ADDRESS],
    ["an unknown address (which a synced copy would deny)", UNKNOWN_ADDRESS],
    ["a wallet of the vault named outright", `${VAULT}/wallets/cold0001`],
  ])("a transfer to %s defers, never denies", async (_, destination) => {
    const body = usdcTransfer(destination);
    await expectStaleDefer(h, await h.cosigner.deliver(body), body.name, new RegExp(`address book of ${VAULT} has not been synced yet`));
  });

  it("is not ready, and /v1/policy shows no copy and the last error", async () => {
    const ready = await getJson(`${h.service.url}/readyz`);
    expect(ready.status).toBe(503);
    expect((ready.body.checks as Record<string, string>).addressBook).toMatch(/has not been synced yet/);
    const policy = await getJson(`${h.service.url}/v1/policy`);
    expect((policy.body.addressBook as { vaults: unknown[] }).vaults).toEqual([
      expect.objectContaining({ vault: VAULT, syncedAt: null, stale: true, lastError: expect.objectContaining({ code: "UNAVAILABLE" }), entryCount: 0 }),
    ]);
  });
});

describe("the bounds of a sync are settings: COUNTERSIGN_ADDRESS_BOOK_MAX_ITEMS and _MAX_MIB", () => {
  // 1,200 address-book entries, and a few wallets and addresses.
  const bigBook = (api: FakeCustodyApi) =>
    api.setAddressBook(
      VAULT_ID,
      Array.from({ length: 1200 }, (_, i) => fakeData.entry(VAULT_ID, i)),
    );

  it("a vault past COUNTERSIGN_ADDRESS_BOOK_MAX_ITEMS fails its sync with TOO_LARGE; raised, the same vault syncs", async () => {
    const low = await startHarness(bigBook, { COUNTERSIGN_ADDRESS_BOOK_MAX_ITEMS: "1100" });
    try {
      const [result] = await low.service.background.sync!.syncAll();
      expect(!result!.ok && result!.error).toMatchObject({ code: "TOO_LARGE", vault: `vaults/${VAULT_ID}` });
    } finally {
      await low.stop();
    }
    const raised = await startHarness(bigBook, { COUNTERSIGN_ADDRESS_BOOK_MAX_ITEMS: "1300" });
    try {
      const [result] = await raised.service.background.sync!.syncAll();
      expect(result!.ok && result!.value.entries).toBe(1200);
    } finally {
      await raised.stop();
    }
  });

  it("a vault whose answers pass COUNTERSIGN_ADDRESS_BOOK_MAX_MIB fails its sync with TOO_LARGE", async () => {
    // 1,200 entries of about 2 KB: about 2.4 MB of answers.
    const h = await startHarness(
      (api) =>
        api.setAddressBook(
          VAULT_ID,
          Array.from({ length: 1200 }, (_, i) => fakeData.entry(VAULT_ID, i, { displayName: "x".repeat(2000) })),
        ),
      {
        COUNTERSIGN_ADDRESS_BOOK_MAX_MIB: "2",
      },
    );
    try {
      const [result] = await h.service.background.sync!.syncAll();
      expect(!result!.ok && result!.error).toMatchObject({ code: "TOO_LARGE" });
      expect(!result!.ok && result!.error.message).toMatch(/passed 2097152 bytes in all/);
    } finally {
      await h.stop();
    }
  });
});
