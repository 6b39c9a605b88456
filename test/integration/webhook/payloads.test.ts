/**
 * End to end: through the webhook of the real service on a Postgres server, with the policy
 * the review used: allow any asset transfer or Stellar payment of at most 100,000, deny anything
 * else, and at most 100,000 a day per wallet and asset. Each body here was signed before the
 * transaction model classified every field.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CosignerSimulator } from "../../support/cosigner.js";
import { HOT_WALLET, USDC, VAULT, transactionName } from "../../support/bodies.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { fakeData } from "../../support/fake-custody-api.js";
import { startTestService, writeBundle } from "../../support/service.js";
import { startSyncedCustody, type SyncedCustody } from "../../support/synced-custody.js";

const POLICY = `
version: "payloads-test.1"
default: deny
windows:
  - {name: daily, duration: 24h, groupBy: [sourceWallet, asset], measure: amount}
rules:
  - id: transfers-only
    decision: deny
    reason: only transfers
    when: {"!": {"in": [{"var": "tx.kind"}, ["assetTransfer", "stellarTransaction"]]}}
  - id: daily-limit
    decision: deny
    reason: daily limit
    when: {">": [{"var": "velocity.daily.amountAfter"}, "100000"]}
  - id: small
    decision: allow
    when: {"<=": [{"var": "transfer.amount"}, "100000"]}
`;

const DEST = "0x52908400098527886E0F7030069857D2E4169EE7";
const HOT_ADDRESS = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
const SENDER = "GSENDERAXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX";
const STELLAR_USDC = "USDC-GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN";

/** An API-shape USDC transfer from the hot wallet's raw address. */
function usdcTransfer(amount: string, top: Record<string, unknown> = {}) {
  return {
    name: transactionName("p"),
    type: "TRANSACTION",
    subType: "TOKEN_TRANSFER",
    state: "AWAITING_SIGNATURE",
    network: "networks/ethereum-mainnet",
    request: { sourceWallet: HOT_WALLET, initiator: "users/ops@example.com" },
    transfers: [{ sourceAddress: { value: HOT_ADDRESS }, destinationAddress: { value: DEST }, amount, asset: USDC }],
    ...top,
  };
}

/** A Stellar USDC payment of `stroops` from one sender, in the reference shape or as the API returns it. */
function stellarPayment(shape: "reference" | "api", stroops: string, operations: Record<string, unknown>[] = []) {
  const name = `${VAULT}/transactions/s${randomUUID().replaceAll("-", "")}`;
  if (shape === "reference") {
    return {
      name,
      details: {
        stellarTransaction: {
          network: "networks/stellar-mainnet",
          sourceAddress: SENDER,
          operations: [{ sourceAccountAddress: SENDER, body: { payment: { destinationAddress: "GDESTA", asset: STELLAR_USDC, rawAmount: stroops } } }],
        },
      },
    };
  }
  return {
    name,
    type: "TRANSACTION",
    subType: "TOKEN_TRANSFER",
    network: "networks/stellar-mainnet",
    // The API names the asset its own way; the decoded operation writes it bare.
    transfers: [{ sourceAddress: { value: SENDER }, destinationAddress: { value: "GDESTA" }, amount: (BigInt(stroops) / 10_000_000n).toString(), asset: STELLAR_USDC }],
    stellarTransaction: {
      sourceAccountAddress: { value: SENDER },
      operations: [
        { sourceAccountAddress: { value: SENDER }, decodedBody: { payment: { destinationAddress: { value: "GDESTA" }, asset: STELLAR_USDC, amount: stroops } } },
        ...operations.map((decodedBody) => ({ sourceAccountAddress: { value: SENDER }, decodedBody })),
      ],
    },
  };
}

describe("co-signer webhook: payloads fail closed", () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let cosigner: CosignerSimulator;

  let custody: SyncedCustody;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    // The synced copy of the vault's wallets names the owners of the raw source addresses: a
    // window grouped by source wallet judges a raw address only once it does (unknown-source.ts).
    custody = await startSyncedCustody(VAULT.slice("vaults/".length), [
      fakeData.wallet(VAULT.slice("vaults/".length), HOT_WALLET.split("/").at(-1)!, [{ id: "a0", address: HOT_ADDRESS, network: "networks/ethereum-mainnet" }]),
      fakeData.wallet(VAULT.slice("vaults/".length), "stellar01", [{ id: "a0", address: SENDER, network: "networks/stellar-mainnet" }]),
    ]);
    service = await startTestService({ database: tdb.handle, policiesDir: writeBundle(POLICY), env: custody.env });
    expect((await service.background.sync!.syncAll()).map((r) => r.ok)).toEqual([true]);
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook`, platform: custody.api });
  });
  afterAll(async () => {
    await service?.stop();
    await custody?.close();
    await tdb?.drop();
  });

  const factsOf = async (name: string) => {
    const row = await tdb.handle.db.selectFrom("decisions").select(["facts"]).where("transaction_name", "=", name).executeTakeFirstOrThrow();
    return (row.facts as { tx: { kind: string; payloads: string[] } }[])[0]!.tx;
  };

  it("signs the plain transfer (the control)", async () => {
    expect((await cosigner.deliver(usdcTransfer("1"))).verdict).toBe("signed");
  });

  it.each([
    [
      "tokenAllowances beside a TOKEN_TRANSFER",
      { tokenAllowances: [{ spenderAddress: { value: "0x000000000000000000000000000000000000dEaD" }, asset: USDC, amount: "1000000" }] },
      ["tokenAllowances"],
    ],
    ["type MESSAGE", { type: "MESSAGE" }, ["type:MESSAGE"]],
    [
      "approve calldata",
      { evmTransaction: { toAddress: { value: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48" }, data: `0x095ea7b3${"0".repeat(24)}${"d".repeat(40)}${"f".repeat(64)}` } },
      ["evmCalldata"],
    ],
    [
      "an EIP-7702 authorization list",
      { evmTransaction: { authorizationDetails: { authorizationList: [{ contractAddress: { value: DEST }, chainId: "1" }] } } },
      ["evmAuthorizations"],
    ],
    ["an evmMessage", { evmMessage: { message: "permit" } }, ["evmMessage"]],
    ["a field nobody classified", { somethingNew: { kept: true } }, ["somethingNew"]],
  ])("%s is denied as unknown, naming the payload", async (_what, top, payloads) => {
    const body = usdcTransfer("1", top);
    const delivery = await cosigner.deliver(body);
    expect(delivery.verdict).toBe("canceled");
    expect(await factsOf(body.name)).toMatchObject({ kind: "unknown", payloads });
  });

  it("a Stellar payment beside a sep41TokenApproval is denied; a decoded 20,000 beside a listed 1 is refused", async () => {
    const approval = { sep41TokenApproval: { spenderAddress: { value: "GSPENDER" }, contractAddress: "CCONTRACTXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", rawAmount: "1" } };
    const withApproval = stellarPayment("api", "10000000", [approval]);
    expect((await cosigner.deliver(withApproval)).verdict).toBe("canceled");
    expect(await factsOf(withApproval.name)).toMatchObject({ kind: "unknown", payloads: ["stellar:sep41TokenApproval"] });
    const understated = {
      ...stellarPayment("api", "200000000000"),
      transfers: [{ sourceAddress: { value: SENDER }, destinationAddress: { value: "GDESTA" }, amount: "1", asset: STELLAR_USDC }],
    };
    const refused = await cosigner.deliver(understated);
    expect(refused).toMatchObject({ verdict: "pending", status: 400 });
  });

  it("one wallet's Stellar USDC is one window in both shapes (70,000 + 60,000 > 100,000)", async () => {
    expect((await cosigner.deliver(stellarPayment("reference", "700000000000"))).verdict).toBe("signed");
    const second = await cosigner.deliver(stellarPayment("api", "600000000000"));
    expect(second.verdict).toBe("canceled");
    expect(second.body).toMatchObject({ reasons: ["daily limit"] });
  });

  it("after a signature, a redelivery with a changed value or an added allowance is a conflicting snapshot", async () => {
    const original = usdcTransfer("2", { evmTransaction: { value: "0" } });
    expect((await cosigner.deliver(original)).verdict).toBe("signed");
    for (const changed of [
      { ...original, evmTransaction: { value: "1000" } },
      { ...original, tokenAllowances: [{ spenderAddress: { value: DEST }, asset: USDC, amount: "1" }] },
    ]) {
      expect((await cosigner.deliver(changed)).body).toMatchObject({ signTransaction: false, reasons: ["conflicting snapshot"] });
    }
    // Delivery metadata is not content: a later state is a repeat of the signature.
    expect((await cosigner.deliver({ ...original, state: "SIGNED", createTime: "2026-11-21T09:00:00Z" })).body).toMatchObject({
      signTransaction: true,
      replayOf: expect.any(String),
    });
  });

  it("an empty asset id is refused, never signed", async () => {
    expect(
      await cosigner.deliver(usdcTransfer("1", { transfers: [{ sourceAddress: { value: DEST }, destinationAddress: { value: DEST }, amount: "1", asset: "assets/" }] })),
    ).toMatchObject({
      verdict: "pending",
      status: 400,
    });
  });
});
