/**
 * One wallet, one window, however the body spells its source. The custody API lets an initiator
 * name a source as the wallet or as its raw address; a window grouped by source wallet must charge
 * both to the same group, or each spelling gets the whole limit (100 ETH out of one wallet in a day
 * against the example's 50). Through the webhook of the
 * real service with the example policy, on a Postgres server: with address-book sync, a raw address
 * is charged to the wallet the synced copy gives it, and one the copy does not know is deferred
 * until it does, whatever wallet the body claims; without sync, a raw source address is denied
 * unless the body's request.sourceWallet names its wallet (src/decision/unknown-source.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assetTransfer, COLD_WALLET, ETH, HOT_WALLET, USDC, VAULT } from "../../support/bodies.js";
import { CosignerSimulator } from "../../support/cosigner.js";
import { fakeData } from "../../support/fake-custody-api.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService } from "../../support/service.js";
import { startSyncedCustody, type SyncedCustody } from "../../support/synced-custody.js";

const ADMIN_TOKEN = "admin-token-for-source-spellings";

const VAULT_ID = VAULT.slice("vaults/".length);
const ETH_NETWORK = "networks/ethereum-mainnet";
const HOT_ADDRESS = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
const COLD_ADDRESS = `0x${"c0".repeat(20)}`;
const NEW_ADDRESS = `0x${"5e".repeat(20)}`;
const DAILY_LIMIT = "At most 50 ETH may leave a wallet in 24 hours";
const walletOf = (name: string, address: string) => fakeData.wallet(VAULT_ID, name.split("/").at(-1)!, [{ id: "a0", address, network: ETH_NETWORK }]);
const eth = (amount: string, source: string) => assetTransfer({ amount, asset: ETH, source, destination: COLD_WALLET });
const BOOK = "0x52908400098527886E0F7030069857D2E4169EE7";
const word = (hex: string) => hex.replace(/^0x/, "").toLowerCase().padStart(64, "0");
/** 1 USDC from the hot wallet (named) to the address-book entry, as a signed EVM call paying from `sender`. */
const usdcPaidFrom = (sender: string) => ({
  ...assetTransfer({ amount: "1", asset: USDC, source: HOT_WALLET, destination: BOOK }),
  network: ETH_NETWORK,
  evmTransaction: {
    fromAddress: { value: sender },
    toAddress: { value: "0xA0b86991c6218b36c1d19d4a2e9eB0cE3606eB48" },
    value: "0",
    data: `0xa9059cbb${word(BOOK)}${word("f4240")}`,
  },
});

const G_HOT = "GHOTWALLETXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX";
const USDC_XLM = "USDC-GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN";
/** 10,000 USDC out of G_HOT as a Stellar payment (API shape): transaction-level source `txSource`, claimed wallet `claim`. */
const stellarPayment = (txSource: string | null, claim: string) => ({
  name: `${VAULT}/transactions/xlm${crypto.randomUUID().replaceAll("-", "")}`,
  type: "TRANSACTION",
  state: "AWAITING_SIGNATURE",
  network: "networks/stellar-mainnet",
  request: { sourceWallet: claim },
  stellarTransaction: {
    sourceAccountAddress: txSource === null ? null : { value: txSource },
    operations: [{ sourceAccountAddress: { value: G_HOT }, decodedBody: { payment: { destinationAddress: { value: COLD_WALLET }, asset: USDC_XLM, amount: "100000000000" } } }],
  },
});

describe("a source spelt as a raw address, with address-book sync", () => {
  let tdb: TestDatabase;
  let custody: SyncedCustody;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let cosigner: CosignerSimulator;
  const sync = async () => expect((await service.background.sync!.syncAll()).map((r) => r.ok)).toEqual([true]);

  beforeAll(async () => {
    tdb = await createTestDatabase();
    custody = await startSyncedCustody(VAULT_ID, [walletOf(HOT_WALLET, HOT_ADDRESS), walletOf(COLD_WALLET, COLD_ADDRESS)]);
    custody.api.setAsset({ name: USDC, symbol: "USDC", decimals: 6 });
    custody.api.setAddressBook(VAULT_ID, [fakeData.entry(VAULT_ID, 1, { address: BOOK })]);
    service = await startTestService({ database: tdb.handle, env: custody.env });
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook`, platform: custody.api });
    await sync();
  });
  afterAll(async () => {
    await service?.stop();
    await custody?.close();
    await tdb?.drop();
  });

  it("is charged to the wallet the synced copy gives it: both spellings share one daily window", async () => {
    for (let i = 0; i < 10; i++) expect((await cosigner.deliver(eth("5", HOT_WALLET))).verdict).toBe("signed");
    for (const spelling of [HOT_ADDRESS, HOT_ADDRESS.toLowerCase(), HOT_WALLET]) {
      const next = await cosigner.deliver(eth("5", spelling));
      expect(next.verdict).toBe("canceled");
      expect(next.body).toMatchObject({ reasons: [DAILY_LIMIT] });
    }
  });

  it("paid from evmTransaction.fromAddress: a source named by wallet must be that address's wallet", async () => {
    // The policy checked the hot wallet; the signed transaction would pay from another.
    const cold = await cosigner.deliver(usdcPaidFrom(COLD_ADDRESS));
    expect(cold).toMatchObject({ verdict: "pending", status: 400, body: { error: { code: "INVALID_TRANSACTION" } } });
    expect(JSON.stringify(cold.body)).toContain("evmTransaction.fromAddress belongs to another wallet of the vault");
    const unlisted = NEW_ADDRESS.replace(/5e/g, "6f");
    const held = await cosigner.deliver(usdcPaidFrom(unlisted));
    expect(held).toMatchObject({ verdict: "pending", status: 503 });
    expect((held.body as { error: { reasons: string[] } }).error.reasons).toEqual([
      `the EVM sender ${unlisted} is not a wallet of ${VAULT} in the synced copy yet, so it cannot be shown to be ${HOT_WALLET}: a window groups by source wallet`,
    ]);
    expect((await cosigner.deliver(usdcPaidFrom(HOT_ADDRESS))).verdict).toBe("signed");
  });

  it("that the synced copy does not know yet is deferred, not charged to a group of its own, and judged once a sync knows it", async () => {
    const body = eth("1", NEW_ADDRESS);
    const first = await cosigner.deliver(body);
    expect(first).toMatchObject({ verdict: "pending", status: 503 });
    expect((first.body as { error: { reasons: string[] } }).error.reasons).toEqual([
      `source ${NEW_ADDRESS} is not a wallet of ${VAULT} in the synced copy yet: a window groups by source wallet`,
    ]);
    // A claimed wallet does not stand in for the copy: any claim would open a group of its own.
    for (const claim of [`${VAULT}/wallets/decoy01`, HOT_WALLET]) {
      const claimed = await cosigner.deliver({ ...eth("1", NEW_ADDRESS), request: { sourceWallet: claim } });
      expect(claimed).toMatchObject({ verdict: "pending", status: 503 });
    }
    custody.api.setWallets(VAULT_ID, [walletOf(HOT_WALLET, HOT_ADDRESS), walletOf(COLD_WALLET, COLD_ADDRESS), walletOf(`${VAULT}/wallets/new01`, NEW_ADDRESS)]);
    await sync();
    expect((await cosigner.deliver(body)).verdict).toBe("signed");
    const charged = await tdb.handle.db
      .selectFrom("velocity_charges")
      .innerJoin("velocity_groups", "velocity_groups.group_hash", "velocity_charges.group_hash")
      .select("velocity_groups.group_key")
      .where("transaction_name", "=", body.name)
      .execute();
    expect(charged.map((c) => c.group_key).sort()).toEqual([
      JSON.stringify([
        ["sourceWallet", ["wallet", `${VAULT}/wallets/new01`]],
        ["asset", ETH],
      ]),
      JSON.stringify([["sourceWallet", ["wallet", `${VAULT}/wallets/new01`]]]),
    ]);
  });
});

describe("a source spelt as a raw address, without address-book sync", () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let cosigner: CosignerSimulator;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    service = await startTestService({ database: tdb.handle, env: { COUNTERSIGN_ADMIN_TOKEN: ADMIN_TOKEN, COUNTERSIGN_ASSET_DECIMALS: JSON.stringify({ [USDC]: 6 }) } });
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
  });

  it("is denied, naming why, while the wallet's name is signed", async () => {
    const raw = await cosigner.deliver(eth("1", HOT_ADDRESS));
    expect(raw.verdict).toBe("canceled");
    expect(raw.body).toMatchObject({
      reasons: [`source ${HOT_ADDRESS} is a raw address and, without address-book sync, its wallet cannot be known: a window groups by source wallet; name the wallet instead`],
    });
    expect((await cosigner.deliver(eth("1", HOT_WALLET))).verdict).toBe("signed");
  });

  it("is answered the same by POST /v1/evaluate, with what the policy alone would say", async () => {
    const response = await fetch(`${service.url}/v1/evaluate`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: JSON.stringify(eth("1", HOT_ADDRESS)),
    });
    expect(await response.json()).toMatchObject({ decision: "deny", reasons: [expect.stringContaining(`source ${HOT_ADDRESS} is a raw address`)], policyOutcome: "allow" });
  });

  it("named by wallet beside an EVM transaction paying from an address: nothing can show the address is that wallet's, so it is denied", async () => {
    const paid = await cosigner.deliver(usdcPaidFrom(HOT_ADDRESS));
    expect(paid.verdict).toBe("canceled");
    expect(paid.body).toMatchObject({ reasons: [`the EVM sender ${HOT_ADDRESS} cannot be shown to be ${HOT_WALLET} without address-book sync: a window groups by source wallet`] });
  });

  it("is charged to the wallet request.sourceWallet names, as the platform gives it: nothing can check it", async () => {
    const claimed = { ...eth("1", HOT_ADDRESS), request: { sourceWallet: HOT_WALLET } };
    expect((await cosigner.deliver(claimed)).verdict).toBe("signed");
  });

  it("on Stellar, an operation beside a payload (the kind is then unknown) is still an operation: the claim does not stand for another account", async () => {
    const G_COLD = "GCOLDACCOUNTXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX";
    const body = stellarPayment(G_HOT, HOT_WALLET);
    body.stellarTransaction.operations[0]!.sourceAccountAddress = { value: G_COLD };
    const withTrustline = {
      ...body,
      stellarTransaction: { ...body.stellarTransaction, operations: [...body.stellarTransaction.operations, { decodedBody: { changeTrust: { asset: USDC_XLM } } }] },
    };
    expect((await cosigner.deliver(withTrustline)).body).toMatchObject({ reasons: [expect.stringContaining(`source ${G_COLD} is a raw address`)] });
  });

  it("on Stellar, a plain asset transfer (no operations, so no second account) takes the claim as on any chain: the policy judges it", async () => {
    const transfer = {
      name: `${VAULT}/transactions/xlmt${crypto.randomUUID().replaceAll("-", "")}`,
      type: "TRANSACTION",
      subType: "TOKEN_TRANSFER",
      state: "AWAITING_SIGNATURE",
      network: "networks/stellar-mainnet",
      request: { sourceWallet: HOT_WALLET },
      transfers: [{ sourceAddress: { value: G_HOT }, destinationAddress: { value: COLD_WALLET }, amount: "1", asset: `assets/asset.stellar-mainnet.${USDC_XLM}` }],
    };
    // The example lists Stellar USDC by its CODE-ISSUER as operations spell it, which names this
    // spelling too (1 USDC to a wallet of the vault): what matters is that the policy, not the
    // unknown-source hold, answered.
    expect((await cosigner.deliver(transfer)).verdict).toBe("signed");
  });

  it("on Stellar, claimed for an operation's account only when the transaction-level source is that account: a wallet name there, or none, proves nothing", async () => {
    expect((await cosigner.deliver(stellarPayment(G_HOT, HOT_WALLET))).verdict).toBe("signed");
    const gas = `${VAULT}/wallets/gasx0`;
    for (const txSource of [gas, null]) {
      const spelt = await cosigner.deliver(stellarPayment(txSource, gas));
      expect(spelt.verdict).toBe("canceled");
      expect(spelt.body).toMatchObject({ reasons: [expect.stringContaining(`source ${G_HOT} is a raw address`)] });
    }
  });
});
