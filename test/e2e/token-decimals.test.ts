/**
 * Token decimals end to end: a body states a token transfer's size twice — `amount` in
 * whole units and `rawAmount` (or the ERC-20 calldata) in smallest units — and only the token's
 * decimals say whether they agree. The real service asks the fake custody API (real HTTP, its JWT
 * checks) before deciding; a disagreement is refused, an unknown size defers, and a pin in
 * COUNTERSIGN_ASSET_DECIMALS stands in where there is no API.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HOT_WALLET, USDC, VAULT, transactionName } from "../support/bodies.js";
import { CosignerSimulator, type Delivery } from "../support/cosigner.js";
import { ASSET_PATHS, fakeData, startFakeCustodyApi, type FakeCustodyApi } from "../support/fake-custody-api.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { createTestServiceAccount, writeTempPem } from "../support/service-account.js";
import { readExample, startTestService } from "../support/service.js";

const VAULT_ID = VAULT.slice("vaults/".length);
const ETH_NETWORK = "networks/ethereum-mainnet";
const EXCHANGE_ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7";
const HOT_ADDRESS = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
const COLD_WALLET = `${VAULT}/wallets/cold0001`;
const USDC_CONTRACT = "0xA0b86991c6218b36c1d19d4a2e9eB0cE3606eB48";
const ADMIN_TOKEN = "admin-token-for-token-decimals";

/** The example USDC transfer under a fresh name, with `amount` and `rawAmount` as given. */
function usdcTransfer(amount: string, rawAmount?: string): Record<string, unknown> & { name: string } {
  const body = readExample("api-shape-token-transfer.json") as Record<string, unknown> & { name: string; transfers: Record<string, unknown>[] };
  body.name = transactionName("dec");
  body.transfers[0]!.amount = amount;
  if (rawAmount !== undefined) body.transfers[0]!.rawAmount = rawAmount;
  return body;
}

/** The same transfer with no rawAmount, carried by `transfer(exchange, raw)` calldata to the USDC contract. */
function usdcByCalldata(amount: string, raw: bigint): Record<string, unknown> & { name: string } {
  const body = usdcTransfer(amount);
  const word = (hex: string) => hex.padStart(64, "0");
  body.evmTransaction = {
    fromAddress: { value: HOT_ADDRESS },
    toAddress: { value: USDC_CONTRACT },
    value: "0",
    data: `0xa9059cbb${word(EXCHANGE_ADDRESS.slice(2).toLowerCase())}${word(raw.toString(16))}`,
  };
  return body;
}

interface Harness {
  url: string;
  service: Awaited<ReturnType<typeof startTestService>>;
  tdb: TestDatabase;
  api: FakeCustodyApi;
  cosigner: CosignerSimulator;
  stop(): Promise<void>;
}

async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const tdb = await createTestDatabase();
  const account = createTestServiceAccount();
  const api = await startFakeCustodyApi({ serviceAccountEmail: account.email, publicKey: account.publicKey });
  api.setAddressBook(VAULT_ID, [fakeData.entry(VAULT_ID, 0, { address: EXCHANGE_ADDRESS, displayName: "Exchange" })]);
  api.setWallets(VAULT_ID, [
    fakeData.wallet(VAULT_ID, HOT_WALLET.split("/").at(-1)!, [{ id: "a0", address: HOT_ADDRESS, network: ETH_NETWORK }]),
    fakeData.wallet(VAULT_ID, "cold0001", [{ id: "a0", address: `0x${"c0".repeat(20)}`, network: ETH_NETWORK }]),
  ]);
  api.setAsset({ name: USDC, displayName: "USD Coin", network: ETH_NETWORK, type: "ERC20", symbol: "USDC", decimals: 6 });
  const key = writeTempPem(account.privateKeyPem);
  const service = await startTestService({
    database: tdb.handle,
    env: {
      COUNTERSIGN_API_URL: api.baseUrl,
      COUNTERSIGN_SERVICE_ACCOUNT_EMAIL: account.email,
      COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE: key.path,
      COUNTERSIGN_VAULTS: VAULT_ID,
      COUNTERSIGN_ADDRESS_BOOK_REFRESH: "1h",
      COUNTERSIGN_ADMIN_TOKEN: ADMIN_TOKEN,
      ...env,
    },
  });
  expect((await service.background.sync!.syncAll()).map((r) => r.ok)).toEqual([true]);
  return {
    url: service.url,
    service,
    tdb,
    api,
    cosigner: new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook`, platform: api }),
    stop: async () => {
      await service.stop();
      await api.close();
      await tdb.drop();
      key.remove();
    },
  };
}

const rowsFor = (h: Harness, name: string) => h.tdb.handle.db.selectFrom("decisions").selectAll().where("transaction_name", "=", name).execute();
const chargesFor = (h: Harness, name: string) => h.tdb.handle.db.selectFrom("velocity_charges").selectAll().where("transaction_name", "=", name).execute();
/** The dry run of `body` (POST /v1/evaluate): status and answer. */
async function evaluate(h: Harness, body: unknown): Promise<{ status: number; answer: Record<string, unknown> }> {
  const response = await fetch(`${h.url}/v1/evaluate`, { method: "POST", headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, body: JSON.stringify(body) });
  return { status: response.status, answer: (await response.json()) as Record<string, unknown> };
}
const assetRequests = (h: Harness) => h.api.requests.filter((r) => r.path.includes("/assets/"));

async function expectRefused(h: Harness, delivery: Delivery, name: string, message: RegExp): Promise<void> {
  expect(delivery).toMatchObject({ verdict: "pending", status: 400 });
  const error = (delivery.body as { error: { code: string; message: string } }).error;
  expect(error.code).toBe("INVALID_TRANSACTION");
  expect(error.message).toMatch(message);
  expect(await rowsFor(h, name)).toEqual([]);
  expect(await chargesFor(h, name)).toEqual([]);
}

async function expectDeferred(h: Harness, delivery: Delivery, name: string, reason: RegExp): Promise<void> {
  expect(delivery).toMatchObject({ verdict: "pending", status: 503 });
  expect((delivery.body as { error: { code: string } }).error.code).toBe("DEFERRED");
  const rows = await rowsFor(h, name);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ decision: "defer", sign_transaction: null, http_status: 503, matched_rules: [] });
  expect(rows[0]!.reasons).toEqual([expect.stringMatching(reason)]);
  expect(await chargesFor(h, name)).toEqual([]);
}

describe("token decimals from the custody API", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => h?.stop());

  it("refuses the reproduced body: amount 5 USDC beside a rawAmount of 5·10^18 (5·10^12 USDC at 6 decimals)", async () => {
    const body = usdcTransfer("5", "5000000000000000000");
    await expectRefused(h, await h.cosigner.deliver(body), body.name, /amount disagrees with its rawAmount at the asset's 6 decimals/);
  });

  it("refuses the calldata variant: transfer() moving 5·10^18 base units under an amount of 5", async () => {
    const body = usdcByCalldata("5", 5_000_000_000_000_000_000n);
    await expectRefused(h, await h.cosigner.deliver(body), body.name, /amount disagrees with the amount its evmTransaction calldata transfers/);
  });

  it("signs the honest pair and charges the whole amount; the API's answer is kept for the next delivery", async () => {
    const before = assetRequests(h).length;
    const first = usdcTransfer("5", "5000000");
    expect((await h.cosigner.deliver(first)).verdict).toBe("signed");
    const charges = await chargesFor(h, first.name);
    expect(charges.length).toBeGreaterThan(0);
    expect(charges.every((c) => Number(c.amount) === 5)).toBe(true);
    const second = usdcByCalldata("7.25", 7_250_000n);
    expect((await h.cosigner.deliver(second)).verdict).toBe("signed");
    expect(assetRequests(h).length - before).toBeLessThanOrEqual(1);
    expect(assetRequests(h).every((r) => r.authorization?.startsWith("Bearer ") && r.status === 200)).toBe(true);
  });

  it("refuses a raw source address the synced copy knows as another wallet than request.sourceWallet claims", async () => {
    const body = usdcTransfer("5");
    (body.request as Record<string, unknown>).sourceWallet = COLD_WALLET;
    await expectRefused(h, await h.cosigner.deliver(body), body.name, /source address belongs to another wallet of the vault than request\.sourceWallet/);
  });

  it("dry run (/v1/evaluate): the same 400s for the lie, the calldata lie and the source contradiction; the honest pair is the policy's", async () => {
    const contradiction = usdcTransfer("5");
    (contradiction.request as Record<string, unknown>).sourceWallet = COLD_WALLET;
    const refused = [
      [usdcTransfer("5", "5000000000000000000"), /amount disagrees with its rawAmount at the asset's 6 decimals/],
      [usdcByCalldata("5", 5_000_000_000_000_000_000n), /amount disagrees with the amount its evmTransaction calldata transfers/],
      [contradiction, /source address belongs to another wallet of the vault than request\.sourceWallet/],
    ] as const;
    for (const [body, message] of refused) {
      const { status, answer } = await evaluate(h, body);
      expect(status).toBe(400);
      expect(answer.error).toMatchObject({ code: "INVALID_TRANSACTION", message: expect.stringMatching(message) });
    }
    const honestBody = usdcTransfer("5", "5000000");
    const honest = await evaluate(h, honestBody);
    expect(honest).toMatchObject({ status: 200, answer: { decision: "allow" } });
    expect(honest.answer).not.toHaveProperty("policyOutcome");
    for (const body of [...refused.map(([b]) => b), honestBody]) expect(await rowsFor(h, body.name)).toEqual([]);
  });

  it("answers a decided transaction as decided even when a later sync makes its source contradict request.sourceWallet", async () => {
    const body = usdcTransfer("5");
    expect((await h.cosigner.deliver(body)).verdict).toBe("signed");
    // The hot wallet's address now belongs to the cold wallet, as far as the copy knows.
    h.api.setWallets(VAULT_ID, [
      fakeData.wallet(VAULT_ID, HOT_WALLET.split("/").at(-1)!, []),
      fakeData.wallet(VAULT_ID, "cold0001", [{ id: "a0", address: HOT_ADDRESS, network: ETH_NETWORK }]),
    ]);
    try {
      expect((await h.service.background.sync!.syncAll()).map((r) => r.ok)).toEqual([true]);
      const again = await h.cosigner.deliver(body);
      expect(again).toMatchObject({ verdict: "signed", status: 200 });
      const fresh = usdcTransfer("5");
      expect(await h.cosigner.deliver(fresh)).toMatchObject({ verdict: "pending", status: 400 });
    } finally {
      h.api.setWallets(VAULT_ID, [
        fakeData.wallet(VAULT_ID, HOT_WALLET.split("/").at(-1)!, [{ id: "a0", address: HOT_ADDRESS, network: ETH_NETWORK }]),
        fakeData.wallet(VAULT_ID, "cold0001", [{ id: "a0", address: `0x${"c0".repeat(20)}`, network: ETH_NETWORK }]),
      ]);
      await h.service.background.sync!.syncAll();
    }
  });

  it("asks GetVaultAsset for an asset the platform serves only through the vault", async () => {
    const imported = "assets/erc20.ethereum-mainnet.0x1111111111111111111111111111111111111111";
    // Priced there too: the example's dollar window charges every transfer it decides.
    h.api.setAsset({ name: imported, decimals: 2, convertedValue: { amount: "1.50", currencyCode: "USD" } }, VAULT_ID);
    const body = usdcTransfer("3", "300");
    (body.transfers as Record<string, unknown>[])[0]!.asset = imported;
    const delivery = await h.cosigner.deliver(body);
    // Decimals confirmed; the example policy then denies the asset it does not list.
    expect(delivery.verdict).toBe("canceled");
    expect(assetRequests(h).some((r) => r.path === `/v2/vaults/${VAULT_ID}/assets/${imported.slice("assets/".length)}` && r.status === 200)).toBe(true);
  });
});

describe("token decimals unknown or in doubt: the decision defers", () => {
  let h: Harness;
  beforeEach(async () => {
    await h?.stop();
  });
  afterAll(async () => h?.stop());

  it("defers, recorded with its reason, while the API fails", async () => {
    h = await startHarness();
    const body = usdcTransfer("5", "5000000");
    h.api.failNext(10, 503, ASSET_PATHS);
    await expectDeferred(h, await h.cosigner.deliver(body), body.name, /the decimals of assets\/erc20\.ethereum-mainnet\.0xa0b8.* are unknown \(custody API: unavailable\)/);
  });

  it("defers an asset the API does not know", async () => {
    h = await startHarness();
    const body = usdcTransfer("5", "5000000");
    (body.transfers as Record<string, unknown>[])[0]!.asset = "assets/erc20.ethereum-mainnet.0x2222222222222222222222222222222222222222";
    await expectDeferred(h, await h.cosigner.deliver(body), body.name, /are unknown \(custody API: not found\)/);
  });

  it("dry run (/v1/evaluate): defer with the reason, beside the policy's own outcome", async () => {
    h = await startHarness();
    h.api.failNext(10, 503);
    const { status, answer } = await evaluate(h, usdcTransfer("5", "5000000"));
    expect(status).toBe(200);
    // With the API down the example's dollar window has no price either: its deny rule cannot be
    // evaluated, which counts as matched, so the policy alone would not sign it.
    expect(answer).toMatchObject({
      decision: "defer",
      reasons: [expect.stringMatching(/the decimals of assets\/erc20\.ethereum-mainnet\.0xa0b8.* are unknown \(custody API: unavailable\)/)],
      policyOutcome: "deny",
    });
  });

  it("defers when a pin contradicts the API", async () => {
    h = await startHarness({ COUNTERSIGN_ASSET_DECIMALS: JSON.stringify({ [USDC]: 18 }) });
    const body = usdcTransfer("5", "5000000");
    await expectDeferred(h, await h.cosigner.deliver(body), body.name, /in doubt \(custody API says 6, COUNTERSIGN_ASSET_DECIMALS says 18\)/);
  });
});

describe("token decimals without a custody API", () => {
  it("defers a raw amount it cannot check, and checks it against a COUNTERSIGN_ASSET_DECIMALS pin", async () => {
    const tdb = await createTestDatabase();
    try {
      const unpinned = await startTestService({ database: tdb.handle });
      const cosigner = new CosignerSimulator({ webhookUrl: `${unpinned.url}/v1/cosigner/webhook` });
      const body = usdcTransfer("5", "5000000");
      const delivery = await cosigner.deliver(body);
      expect(delivery).toMatchObject({ verdict: "pending", status: 503 });
      expect((delivery.body as { error: { message: string } }).error.message).toMatch(/no custody API and no COUNTERSIGN_ASSET_DECIMALS pin/);
      await unpinned.stop();

      // Pinned as a block explorer writes the contract (checksum case); the bodies write it lower-case.
      const pinned = await startTestService({
        database: tdb.handle,
        env: { COUNTERSIGN_ASSET_DECIMALS: JSON.stringify({ [`assets/erc20.ethereum-mainnet.${USDC_CONTRACT}`]: 6 }) },
      });
      const pinnedCosigner = new CosignerSimulator({ webhookUrl: `${pinned.url}/v1/cosigner/webhook` });
      const lie = usdcTransfer("5", "5000000000000000000");
      expect(await pinnedCosigner.deliver(lie)).toMatchObject({ verdict: "pending", status: 400 });
      // Without sync, the example policy's destination check fails on a raw address: denied, not signed, but decided.
      const honest = usdcTransfer("5", "5000000");
      expect((await pinnedCosigner.deliver(honest)).status).toBe(200);
      await pinned.stop();
    } finally {
      await tdb.drop();
    }
  });
});
