/**
 * One asset, one window, however a body spells it (found by an adversarial review: each spelling
 * got a window of its own, so a 5,000-a-day limit let 10,000 through). The custody API names a
 * Solana token `spl.{network}.{mint}` (reference) and `spl-token.{network}.{mint}` (OpenAPI), and
 * accepts an opaque id (`assets/e72ff35a5b15`) for an asset it names elsewhere by its structured
 * name. Against the real service over HTTP, with docs/interface.md section 3's example window.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { CosignerSimulator } from "../support/cosigner.js";
import { assetTransfer, COLD_WALLET, HOT_WALLET } from "../support/bodies.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { startTestService, writeBundle } from "../support/service.js";

const POLICY = `
version: "asset-spellings.1"
default: deny
windows:
  - {name: daily_out, duration: 24h, groupBy: [sourceWallet, asset], measure: amount}
rules:
  - id: internal-daily-limit
    decision: allow
    when:
      and:
        - {"var": "transfer.destination.internal"}
        - {"<=": [{"var": "transfer.amount"}, "1000"]}
        - {"<=": [{"var": "velocity.daily_out.amountAfter"}, "5000"]}
`;

const MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const SPL = `assets/spl.solana-mainnet.${MINT}`;
const SPL_TOKEN = `assets/spl-token.solana-mainnet.${MINT}`;
const ETH = "assets/native.ethereum-mainnet";
const OPAQUE = "assets/e72ff35a5b15";

describe("asset spellings and velocity windows", () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let cosigner: CosignerSimulator;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    service = await startTestService({ database: tdb.handle, policiesDir: writeBundle(POLICY), clock: () => new Date("2026-11-21T12:00:00Z") });
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
  });

  const send = (asset: string, source: string) => cosigner.deliver(assetTransfer({ asset, amount: "1000", source, destination: COLD_WALLET }));

  const charged = async (source: string) => {
    const r = await sql<{ sum: string }>`select coalesce(sum(c.amount), 0)::text as sum from velocity_charges c
      join decisions d on d.id = c.decision_id where c.voided_at is null and d.transaction->'details'->'assetTransfer'->>'source' = ${source}`.execute(tdb.handle.db);
    return r.rows[0]!.sum;
  };

  it("a Solana token under spl and spl-token fills one window: 5,000 a day, not 10,000", async () => {
    const source = `${HOT_WALLET}sol`;
    for (let i = 0; i < 5; i++) expect((await send(SPL, source)).verdict).toBe("signed");
    expect((await send(SPL_TOKEN, source)).verdict).toBe("canceled");
    expect((await send(`assets/spl-token-2022.solana-mainnet.${MINT}`, source)).verdict).toBe("canceled");
    expect(await charged(source)).toBe("5000");
  });

  it("ETH by its structured name in another case is the same window", async () => {
    const source = `${HOT_WALLET}eth`;
    for (let i = 0; i < 5; i++) expect((await send(ETH, source)).verdict).toBe("signed");
    expect((await send("assets/Native.Ethereum-Mainnet", source)).verdict).toBe("canceled");
    expect(await charged(source)).toBe("5000");
  });

  it.each([OPAQUE, `${OPAQUE}.x`])("an opaque asset id (%s) is denied while a window groups by asset, with a reason that says why, and charges nothing", async (asset) => {
    const source = `${HOT_WALLET}opaque`;
    const delivery = await send(asset, source);
    expect(delivery.verdict).toBe("canceled");
    expect(JSON.stringify(delivery.body)).toContain(`asset ${asset} is an opaque id`);
    expect(await charged(source)).toBe("0");
  });

  it("USDC with its contract spelt 0X, or without 0x, is the same window", async () => {
    const source = `${HOT_WALLET}usdc`;
    const usdc = "assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
    for (let i = 0; i < 5; i++) expect((await send(usdc, source)).verdict).toBe("signed");
    expect((await send(usdc.replace(".0x", ".0X"), source)).verdict).toBe("canceled");
    expect((await send(usdc.replace(".0x", "."), source)).verdict).toBe("canceled");
    expect(await charged(source)).toBe("5000");
  });
});

describe("without a window grouped by asset", () => {
  it("an opaque asset id is evaluated as any asset", async () => {
    const tdb = await createTestDatabase();
    const policy = `
version: "asset-spellings.2"
default: deny
windows:
  - {name: hourly_count, duration: 1h, groupBy: [sourceWallet], measure: count}
rules:
  - id: internal-hourly-count
    decision: allow
    when: {"and": [{"var": "transfer.destination.internal"}, {"<=": [{"var": "velocity.hourly_count.countAfter"}, 10]}]}
`;
    const service = await startTestService({ database: tdb.handle, policiesDir: writeBundle(policy) });
    try {
      const cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
      const delivery = await cosigner.deliver(assetTransfer({ asset: OPAQUE, amount: "1", source: HOT_WALLET, destination: COLD_WALLET }));
      expect(delivery.verdict).toBe("signed");
    } finally {
      await service.stop();
      await tdb.drop();
    }
  });
});

describe("the example policy: a second spelling is allowed only as the same asset", () => {
  it("ETH spelt assets/NATIVE.Ethereum-Mainnet passes the asset list, and shares the 50 ETH daily limit with assets/native.ethereum-mainnet", async () => {
    const tdb = await createTestDatabase();
    const service = await startTestService({ database: tdb.handle });
    try {
      const cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
      const send = (asset: string) => cosigner.deliver(assetTransfer({ asset, amount: "5", source: HOT_WALLET, destination: COLD_WALLET }));
      for (let i = 0; i < 5; i++) expect((await send(ETH)).verdict).toBe("signed");
      for (let i = 0; i < 5; i++) expect((await send("assets/NATIVE.Ethereum-Mainnet")).verdict).toBe("signed");
      const over = await send("assets/NATIVE.Ethereum-Mainnet");
      expect(over.verdict).toBe("canceled");
      expect((over.body as { reasons: string[] }).reasons).toContain("At most 50 ETH may leave a wallet in 24 hours");
      expect((await send(ETH)).verdict).toBe("canceled");
    } finally {
      await service.stop();
      await tdb.drop();
    }
  });
});
