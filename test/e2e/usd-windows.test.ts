/**
 * Limits in dollars end to end (docs/interface.md section 10): the real service prices each
 * transfer with the simulated custody API's own prices (real HTTP, its service-account JWT check),
 * charges a `usd` window the exact dollars at the decision's price on a real Postgres, and defers
 * whatever it cannot price. Two service instances with their own pools and price caches race on
 * one durable database as two replicas would.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { voidCharges } from "../../src/velocity/ledger.js";
import { loadBundle } from "../../src/policy/load.js";
import { replay } from "../../src/replay/replay.js";
import { readDecision } from "../../src/audit/decision-view.js";
import { explainDecision } from "../../src/commands/explain-decision.js";
import { COLD_WALLET, ETH, HOT_WALLET, USDC, VAULT, assetTransfer } from "../support/bodies.js";
import { CosignerSimulator, type Delivery } from "../support/cosigner.js";
import { fakeData, startFakeCustodyApi, type FakeCustodyApi } from "../support/fake-custody-api.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { createTestServiceAccount, writeTempPem } from "../support/service-account.js";
import { startTestService, writeBundle } from "../support/service.js";

const VAULT_ID = VAULT.slice("vaults/".length);
const ETH_NETWORK = "networks/ethereum-mainnet";
const UNPRICED = "assets/erc20.ethereum-mainnet.0x1111111111111111111111111111111111111111";
const ZERO = "assets/erc20.ethereum-mainnet.0x2222222222222222222222222222222222222222";
const EUR = "assets/erc20.ethereum-mainnet.0x3333333333333333333333333333333333333333";
const PINNED = "assets/erc20.ethereum-mainnet.0x4444444444444444444444444444444444444444";
const RACED = "assets/erc20.ethereum-mainnet.0x5555555555555555555555555555555555555555";

const POLICY = `
version: "usd-e2e.1"
default: deny
windows:
  - {name: daily_usd, duration: 24h, groupBy: [sourceWallet], measure: usd}
rules:
  - id: daily-dollar-limit
    decision: deny
    reason: At most $1,000 a day from one wallet, whatever the asset
    when: {">": [{"var": "velocity.daily_usd.usdAfter"}, "1000"]}
  - id: internal
    decision: allow
    when: {"var": "transfer.destination.internal"}
`;

type Service = Awaited<ReturnType<typeof startTestService>>;
const usd = (amount: string, currencyCode = "USD") => ({ convertedValue: { amount, currencyCode } });

describe("dollar windows priced by the custody platform", () => {
  let tdb: TestDatabase;
  let api: FakeCustodyApi;
  let instances: Service[];
  let key: { path: string; remove(): void };
  let wallets = 0;
  /** A wallet of its own for each test: its daily window starts empty. */
  let wallet = HOT_WALLET;
  const cosigner = (i = 0) => new CosignerSimulator({ webhookUrl: `${instances[i]!.url}/v1/cosigner/webhook`, platform: api });
  const transfer = (asset: string, amount: string) => assetTransfer({ asset, amount, source: wallet, destination: COLD_WALLET });
  const rowsOf = (name: string) =>
    tdb.handle.db.selectFrom("decisions").select(["decision", "reasons", "prices", "facts"]).where("transaction_name", "=", name).orderBy("seq").execute();
  const chargesOf = (name: string) => tdb.handle.db.selectFrom("velocity_charges").select(["amount", "usd"]).where("transaction_name", "=", name).execute();
  const windowUsd = async (): Promise<string> => {
    const { rows } = await sql<{ usd: string }>`
      select trim_scale(coalesce(sum(c.usd), 0))::text as usd from velocity_charges c join velocity_groups g using (group_hash)
      where c.voided_at is null and g.group_key = ${JSON.stringify([["sourceWallet", ["wallet", wallet]]])}`.execute(tdb.handle.db);
    return rows[0]!.usd;
  };
  const expectDeferred = async (delivery: Delivery, name: string, reason: string | RegExp) => {
    expect(delivery).toMatchObject({ verdict: "pending", status: 503 });
    const rows = await rowsOf(name);
    expect(rows.map((r) => r.decision)).toEqual(["defer"]);
    expect(rows[0]!.reasons).toEqual([typeof reason === "string" ? reason : expect.stringMatching(reason)]);
    expect(await chargesOf(name)).toEqual([]);
  };

  beforeAll(async () => {
    tdb = await createTestDatabase({ maxConnections: 20 });
    const account = createTestServiceAccount();
    api = await startFakeCustodyApi({ serviceAccountEmail: account.email, publicKey: account.publicKey });
    api.setWallets(VAULT_ID, [
      fakeData.wallet(VAULT_ID, HOT_WALLET.split("/").at(-1)!, [{ id: "a0", address: "0x8ba1f109551bD432803012645Ac136ddd64DBA72", network: ETH_NETWORK }]),
      fakeData.wallet(VAULT_ID, "cold0001", [{ id: "a0", address: `0x${"c0".repeat(20)}`, network: ETH_NETWORK }]),
    ]);
    key = writeTempPem(account.privateKeyPem);
    const policiesDir = writeBundle(POLICY);
    const env = {
      COUNTERSIGN_API_URL: api.baseUrl,
      COUNTERSIGN_SERVICE_ACCOUNT_EMAIL: account.email,
      COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE: key.path,
      COUNTERSIGN_VAULTS: VAULT_ID,
      COUNTERSIGN_ADDRESS_BOOK_REFRESH: "1h",
      COUNTERSIGN_ASSET_PRICES: JSON.stringify({ [PINNED]: "2.5", [ETH]: "1" }),
      // About exact dollars under contention, not latency: deliveries queued on one wallet's lock
      // may outlast the default budget on a loaded machine.
      COUNTERSIGN_DECISION_TIMEOUT: "60s",
    };
    instances = [await startTestService({ databaseUrl: tdb.url, policiesDir, env }), await startTestService({ databaseUrl: tdb.url, policiesDir, env })];
    for (const s of instances) expect((await s.background.sync!.syncAll()).map((r) => r.ok)).toEqual([true]);
  });
  afterAll(async () => {
    for (const s of instances ?? []) await s.stop();
    await api?.close();
    await tdb?.drop();
    key?.remove();
  });
  beforeEach(() => {
    api.failNext(0);
    wallet = `${VAULT}/wallets/usd${++wallets}`;
    api.setAsset({ name: ETH, decimals: 18, ...usd("3012.4567") });
    api.setAsset({ name: USDC, decimals: 6, ...usd("0.99987") });
    api.setAsset({ name: UNPRICED, decimals: 18 });
    api.setAsset({ name: ZERO, decimals: 18, ...usd("0") });
    api.setAsset({ name: EUR, decimals: 18, ...usd("0.5", "EUR") });
    api.setAsset({ name: PINNED, decimals: 18 });
  });

  it("signs a priced transfer and records the exact product, the price, when it was fetched and from where", async () => {
    const body = transfer(USDC, "123.456789");
    expect(await cosigner().deliver(body)).toMatchObject({ verdict: "signed" });
    const [row] = await rowsOf(body.name);
    expect(row!.prices).toEqual([{ asset: USDC, usd: "0.99987", fetchedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), source: "platform" }]);
    expect((row!.facts as { transfer: unknown }[])[0]!.transfer).toMatchObject({ usdPrice: "0.99987", usd: "123.44073961743" });
    expect(await chargesOf(body.name)).toEqual([{ amount: "123.456789", usd: "123.44073961743" }]);
    const batch = api.requests.filter((r) => r.path === "/v2/assets:batchGet").at(-1)!;
    expect(batch).toMatchObject({ status: 200, authorization: expect.stringMatching(/^Bearer /) });
    // explain --decision shows the dollars the decision saw.
    const id = (await tdb.handle.db.selectFrom("decisions").select("id").where("transaction_name", "=", body.name).executeTakeFirstOrThrow()).id;
    const lines: string[] = [];
    expect(
      await explainDecision(
        (i) => readDecision(tdb.handle.db, i),
        id,
        { json: false },
        (l) => lines.push(l),
      ),
    ).toBe(0);
    expect(lines).toContain(`  price ${USDC}: $0.99987 (custody platform, fetched ${(row!.prices as { fetchedAt: string }[])[0]!.fetchedAt})`);
  });

  it("sums two assets in one dollar window and denies the transfer that would pass its limit", async () => {
    const eth = transfer(ETH, "0.3"); // 903.73701
    const usdc = transfer(USDC, "100"); // 99.987: 1003.72401 in all
    expect(await cosigner().deliver(eth)).toMatchObject({ verdict: "signed" });
    const denied = await cosigner().deliver(usdc);
    expect(denied).toMatchObject({ verdict: "canceled" });
    expect((denied.body as { reasons: string[] }).reasons).toEqual(["At most $1,000 a day from one wallet, whatever the asset"]);
    expect((await rowsOf(usdc.name))[0]!.facts).toEqual([
      expect.objectContaining({ velocity: { daily_usd: { usd: "903.73701", count: 1, usdAfter: "1003.72401", countAfter: 2 } } }),
    ]);
    expect(await cosigner().deliver(transfer(USDC, "96.26"))).toMatchObject({ verdict: "signed" }); // 96.2474862: 999.9844962
    expect(await windowUsd()).toBe("999.9844962");
  });

  it("two instances racing on one durable Postgres sign exactly the deliveries the dollar limit allows", async () => {
    api.setAsset({ name: RACED, decimals: 18, ...usd("40") });
    const bodies = Array.from({ length: 40 }, () => transfer(RACED, "2.5")); // $100 each
    const deliveries = await Promise.all(bodies.map((b, i) => cosigner(i % 2).deliver(b)));
    expect(deliveries.filter((d) => d.verdict === "signed")).toHaveLength(10);
    expect(deliveries.filter((d) => d.verdict === "canceled")).toHaveLength(30);
    expect(await windowUsd()).toBe("1000");
    const served = await tdb.handle.db
      .selectFrom("decisions")
      .select("request_id")
      .where(
        "transaction_name",
        "in",
        bodies.map((b) => b.name),
      )
      .execute();
    expect(served).toHaveLength(40);
  });

  it.each([
    ["the platform gives no price", () => UNPRICED],
    ["the platform's price is zero", () => ZERO],
    ["the platform's price is not in USD", () => EUR],
  ])("defers, naming the asset, when %s", async (_, asset) => {
    const body = transfer(asset(), "1");
    await expectDeferred(await cosigner().deliver(body), body.name, `price unknown for ${asset()}`);
  });

  it("defers while the platform is down, without using a pin in its place", async () => {
    const body = transfer(PINNED, "1");
    // The prices' calls only: the delivery itself is confirmed with the platform (GetTransaction).
    api.failNext(10, 503, /\/assets(:batchGet|\/[^/]+)$/);
    await expectDeferred(await cosigner(1).deliver(body), body.name, `price unavailable for ${PINNED} (custody API: unavailable)`);
  });

  it("uses a pin for an asset the platform does not price, and ignores the pin where the platform prices it", async () => {
    const pinned = transfer(PINNED, "10");
    expect(await cosigner().deliver(pinned)).toMatchObject({ verdict: "signed" });
    expect((await rowsOf(pinned.name))[0]!.prices).toEqual([expect.objectContaining({ asset: PINNED, usd: "2.5", source: "pin" })]);
    expect(await chargesOf(pinned.name)).toEqual([{ amount: "10", usd: "25" }]);
    const platform = transfer(ETH, "0.1");
    expect(await cosigner().deliver(platform)).toMatchObject({ verdict: "signed" });
    expect((await rowsOf(platform.name))[0]!.prices).toEqual([expect.objectContaining({ asset: ETH, usd: "3012.4567", source: "platform" })]);
  });

  it("answers a repeat as decided, whatever the price did since, and charges once", async () => {
    const body = transfer(ETH, "0.3"); // $903.73701 now
    expect(await cosigner().deliver(body)).toMatchObject({ verdict: "signed" });
    api.setAsset({ name: ETH, decimals: 18, ...usd("9000") }); // $2,700 now: a first delivery would be denied
    const again = await cosigner().deliver(body);
    expect(again).toMatchObject({ verdict: "signed" });
    const rows = await tdb.handle.db.selectFrom("decisions").select(["decision", "replayed"]).where("transaction_name", "=", body.name).orderBy("seq").execute();
    expect(rows).toEqual([
      { decision: "allow", replayed: false },
      { decision: "allow", replayed: true },
    ]);
    expect(await chargesOf(body.name)).toEqual([{ amount: "0.3", usd: "903.73701" }]);
  });

  it("policy replay judges the dollars each decision saw, never today's prices", async () => {
    const body = transfer(USDC, "600"); // $599.922 at 0.99987
    const from = new Date(Date.now() - 1000);
    expect(await cosigner().deliver(body)).toMatchObject({ verdict: "signed" });
    api.setAsset({ name: USDC, decimals: 6, ...usd("0.5") });
    const tighter = await loadBundle(writeBundle(POLICY.replace('"1000"]', '"599.92"]').replace("usd-e2e.1", "usd-e2e.2")));
    if (!tighter.ok) throw new Error(tighter.error.message);
    const report = await replay(tdb.handle.db, tighter.value, { from, to: new Date(Date.now() + 1000), vault: VAULT });
    const mine = report.changes.filter((c) => c.transactionName === body.name);
    expect(mine).toEqual([
      expect.objectContaining({ from: { decision: "allow", rules: ["internal"] }, to: { decision: "deny", rules: ["daily-dollar-limit"] }, amounts: [`600 ${USDC} ($599.922)`] }),
    ]);
  });

  it("a void subtracts the dollars charged, not the dollars at today's price", async () => {
    const kept = transfer(USDC, "100"); // 99.987
    const voided = transfer(ETH, "0.2"); // 602.49134
    for (const b of [kept, voided]) expect(await cosigner().deliver(b)).toMatchObject({ verdict: "signed" });
    api.setAsset({ name: ETH, decimals: 18, ...usd("1") });
    expect(await voidCharges(tdb.handle.db, voided.name, new Date())).toEqual({ voided: 1 });
    expect(await windowUsd()).toBe("99.987");
    // The window the decision path reads (the buckets) agrees with the live charges.
    const { rows } = await sql<{ usd: string }>`
      select trim_scale(coalesce(sum(b.usd), 0))::text as usd from velocity_buckets b join velocity_groups g using (group_hash)
      where b.width_seconds = 86400 and g.group_key = ${JSON.stringify([["sourceWallet", ["wallet", wallet]]])}`.execute(tdb.handle.db);
    expect(rows[0]!.usd).toBe("99.987");
  });
});

describe("velocity_usage", () => {
  it("shows a group's use per asset and in dollars, never adding two assets' units together", async () => {
    const tdb = await createTestDatabase();
    try {
      const policiesDir = writeBundle(POLICY);
      const service = await startTestService({ database: tdb.handle, policiesDir, env: { COUNTERSIGN_ASSET_PRICES: JSON.stringify({ [USDC]: "1", [ETH]: "3000.5" }) } });
      try {
        const cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
        // Two wallets, each within its dollar limit: the view's rows are per group and asset.
        const bodies = [
          assetTransfer({ asset: USDC, amount: "900", source: `${VAULT}/wallets/a` }),
          assetTransfer({ asset: ETH, amount: "0.2", source: `${VAULT}/wallets/b` }),
          assetTransfer({ asset: USDC, amount: "50", source: `${VAULT}/wallets/b` }),
        ];
        for (const body of bodies) expect(await cosigner.deliver(body)).toMatchObject({ verdict: "signed" });
        const { rows } = await sql<{ group_key: string; asset: string; used_amount_24h: string; used_usd_24h: string }>`
          select group_key, asset, trim_scale(used_amount_24h)::text as used_amount_24h, trim_scale(used_usd_24h)::text as used_usd_24h
          from velocity_usage order by group_key collate "C", asset collate "C"`.execute(tdb.handle.db);
        const group = (w: string) => JSON.stringify([["sourceWallet", ["wallet", `${VAULT}/wallets/${w}`]]]);
        expect(rows).toEqual([
          { group_key: group("a"), asset: USDC, used_amount_24h: "900", used_usd_24h: "900" },
          { group_key: group("b"), asset: USDC, used_amount_24h: "50", used_usd_24h: "50" },
          { group_key: group("b"), asset: ETH, used_amount_24h: "0.2", used_usd_24h: "600.1" },
        ]);
        // The audit views show each transfer's dollars beside its amount.
        const transfers = await sql<{ asset: string; amount: string; usd_price: string; usd: string }>`
          select asset, amount::text, usd_price::text, usd::text from decision_transfers where transaction_name = ${bodies[1]!.name}`.execute(tdb.handle.db);
        expect(transfers.rows).toEqual([{ asset: ETH, amount: "0.2", usd_price: "3000.5", usd: "600.1" }]);
        const log = await sql<{ usd_amounts: string[] }>`select usd_amounts::text[] from decision_log where transaction_name = ${bodies[0]!.name}`.execute(tdb.handle.db);
        expect(log.rows).toEqual([{ usd_amounts: ["900"] }]);
      } finally {
        await service.stop();
      }
    } finally {
      await tdb.drop();
    }
  });
});
