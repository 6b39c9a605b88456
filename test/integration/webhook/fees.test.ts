/**
 * A network fee leaves the wallet as surely as a transfer does: the body's stated fee is the
 * `tx.fee` fact (src/core/transaction/fee.ts), so a policy can cap it. A 0.001 BTC transfer spending a 3 BTC input with no change, and a 1 ETH transfer allowed up to
 * 21 ETH of gas, were both signed while no rule could see the fee. Against the real service over
 * HTTP, with the address book synced from the fake custody API.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOT_WALLET, VAULT, transactionName } from "../../support/bodies.js";
import { CosignerSimulator } from "../../support/cosigner.js";
import { fakeData } from "../../support/fake-custody-api.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService, writeBundle } from "../../support/service.js";
import { startSyncedCustody, type SyncedCustody } from "../../support/synced-custody.js";

const VAULT_ID = VAULT.slice("vaults/".length);
const BTC_NET = "networks/bitcoin-mainnet";
const ETH_NET = "networks/ethereum-mainnet";
const HOT_BTC = "bc1qhotwallet0000000000000000000000000000a";
const EXCHANGE_BTC = "bc1qexchange0000000000000000000000000000q";
const HOT_ETH = "0x8ba1f109551bd432803012645ac136ddd64dba72";
const EXCHANGE_ETH = "0x52908400098527886e0f7030069857d2e4169ee7";

const POLICY = `
version: "fees.1"
default: deny
windows:
  - {name: daily_out, duration: 24h, groupBy: [sourceWallet, asset], measure: amount}
rules:
  - id: fee-limit
    decision: deny
    reason: the stated network fee is above 0.001 BTC or 0.01 ETH
    when:
      or:
        - {"and": [{"===": [{"var": "tx.fee.asset"}, "assets/native.bitcoin-mainnet"]}, {">": [{"var": "tx.fee.amount"}, "0.001"]}]}
        - {"and": [{"===": [{"var": "tx.fee.asset"}, "assets/native.ethereum-mainnet"]}, {">": [{"var": "tx.fee.amount"}, "0.01"]}]}
  - id: btc-transfer-limit
    decision: deny
    reason: a single BTC transfer may not exceed 0.5
    when: {"and": [{"===": [{"var": "transfer.asset"}, "assets/native.bitcoin-mainnet"]}, {">": [{"var": "transfer.amount"}, "0.5"]}]}
  - id: btc-daily-limit
    decision: deny
    reason: at most 1 BTC a day per wallet
    when: {"and": [{"===": [{"var": "transfer.asset"}, "assets/native.bitcoin-mainnet"]}, {">": [{"var": "velocity.daily_out.amountAfter"}, "1"]}]}
  - id: eth-transfer-limit
    decision: deny
    reason: a single ETH transfer may not exceed 2
    when: {"and": [{"===": [{"var": "transfer.asset"}, "assets/native.ethereum-mainnet"]}, {">": [{"var": "transfer.amount"}, "2"]}]}
  - id: eth-daily-limit
    decision: deny
    reason: at most 5 ETH a day per wallet
    when: {"and": [{"===": [{"var": "transfer.asset"}, "assets/native.ethereum-mainnet"]}, {">": [{"var": "velocity.daily_out.amountAfter"}, "5"]}]}
  - id: listed-assets-to-address-book
    decision: allow
    when:
      and:
        - {"in": [{"var": "tx.kind"}, ["assetTransfer"]]}
        - {"in": [{"var": "transfer.asset"}, ["assets/native.bitcoin-mainnet", "assets/native.ethereum-mainnet"]]}
        - {"var": "transfer.destination.inAddressBook"}
`;

describe("network fees: tx.fee, over HTTP with a synced address book", () => {
  let tdb: TestDatabase;
  let custody: SyncedCustody;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let cosigner: CosignerSimulator;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    custody = await startSyncedCustody(VAULT_ID, [
      fakeData.wallet(VAULT_ID, HOT_WALLET.split("/").at(-1)!, [
        { id: "a0", address: HOT_BTC, network: BTC_NET },
        { id: "a1", address: HOT_ETH, network: ETH_NET },
      ]),
    ]);
    custody.api.setAddressBook(VAULT_ID, [
      fakeData.entry(VAULT_ID, 0, { address: EXCHANGE_BTC, network: BTC_NET, displayName: "Exchange BTC" }),
      fakeData.entry(VAULT_ID, 1, { address: EXCHANGE_ETH, network: ETH_NET, displayName: "Exchange ETH" }),
    ]);
    service = await startTestService({
      database: tdb.handle,
      policiesDir: writeBundle(POLICY),
      env: { ...custody.env, COUNTERSIGN_ADDRESS_BOOK_REFRESH: "1h" },
    });
    expect((await service.background.sync!.syncAll()).map((r) => r.ok)).toEqual([true]);
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook`, platform: custody.api });
  });
  afterAll(async () => {
    await service?.stop();
    await custody?.close();
    await tdb?.drop();
  });

  const charges = (name: string) => tdb.handle.db.selectFrom("velocity_charges").select("amount").where("transaction_name", "=", name).execute();

  const btcBody = (suffix: string, btcTransaction: Record<string, unknown>) => ({
    name: transactionName(suffix),
    type: "TRANSACTION",
    subType: "BTC_TRANSFER",
    state: "AWAITING_SIGNATURE",
    network: BTC_NET,
    request: { initiator: "users/ops@treasury.example", sourceWallet: HOT_WALLET },
    transfers: [{ destinationAddress: { value: EXCHANGE_BTC }, amount: "0.001", asset: "assets/native.bitcoin-mainnet" }],
    btcTransaction: { outputs: [{ address: { value: EXCHANGE_BTC }, amount: "0.001" }], asset: "assets/native.bitcoin-mainnet", ...btcTransaction },
  });

  const ethBody = (suffix: string, fee: Record<string, string>) => ({
    name: transactionName(suffix),
    type: "TRANSACTION",
    subType: "NATIVE_TRANSFER",
    state: "AWAITING_SIGNATURE",
    network: ETH_NET,
    request: { initiator: "users/ops@treasury.example", sourceWallet: HOT_WALLET },
    transfers: [{ sourceAddress: { value: HOT_ETH }, destinationAddress: { value: EXCHANGE_ETH }, amount: "1", asset: "assets/native.ethereum-mainnet" }],
    evmTransaction: { fromAddress: { value: HOT_ETH }, toAddress: { value: EXCHANGE_ETH }, value: "1000000000000000000", fee },
  });

  it("BTC: 0.001 BTC out of a 3 BTC input with no change (2.999 BTC to the miner) is cancelled by the fee rule, nothing charged", async () => {
    const body = btcBody("btcfee", { inputs: [{ address: { value: HOT_BTC }, amount: "3" }], fee: "2.999" });
    const delivery = await cosigner.deliver(body);
    expect(delivery.body).toMatchObject({ signTransaction: false });
    expect(delivery.verdict).toBe("canceled");
    expect(await charges(body.name)).toEqual([]);
    const row = await tdb.handle.db.selectFrom("decisions").select(["facts", "matched_rules"]).where("transaction_name", "=", body.name).executeTakeFirstOrThrow();
    expect((row.matched_rules as { rule: string }[]).map((m) => m.rule)).toContain("fee-limit");
    expect(JSON.stringify(row.facts)).toContain('"fee":{"asset":"assets/native.bitcoin-mainnet","amount":"2.999"}');
  });

  it("BTC: the same fee left unstated is read from the inputs less the outputs", async () => {
    const delivery = await cosigner.deliver(btcBody("btcfee-unstated", { inputs: [{ address: { value: HOT_BTC }, amount: "3" }] }));
    expect(delivery.verdict).toBe("canceled");
  });

  it("BTC: a stated fee its inputs and outputs contradict is refused with 400, nothing recorded", async () => {
    const body = btcBody("btcfee-lie", { inputs: [{ address: { value: HOT_BTC }, amount: "3" }], fee: "0.0001" });
    const delivery = await cosigner.deliver(body);
    expect(delivery.status).toBe(400);
    expect(JSON.stringify(delivery.body)).toContain("btcTransaction.fee");
    expect(await tdb.handle.db.selectFrom("decisions").select("id").where("transaction_name", "=", body.name).execute()).toEqual([]);
  });

  it("BTC: a transfer with change back to the wallet and a small fee is signed", async () => {
    const body = btcBody("btcfee-ok", {
      inputs: [{ address: { value: HOT_BTC }, amount: "0.01" }],
      outputs: [
        { address: { value: EXCHANGE_BTC }, amount: "0.001" },
        { address: { value: HOT_BTC }, amount: "0.0089", change: true },
      ],
      fee: "0.0001",
    });
    expect((await cosigner.deliver(body)).verdict).toBe("signed");
  });

  it("ETH: 1 ETH with up to 21 ETH of gas (21,000 × 1,000,000 gwei) is cancelled by the fee rule", async () => {
    const body = ethBody("ethfee", { gasLimit: "21000", maxFeePerGas: "0x38d7ea4c68000", maxPriorityFeePerGas: "0x38d7ea4c68000" });
    const delivery = await cosigner.deliver(body);
    expect(delivery.verdict).toBe("canceled");
    expect(await charges(body.name)).toEqual([]);
  });

  it("ETH: the same 21 ETH of gas in a body that names no network takes its coin from the transfers' asset, and is cancelled", async () => {
    const { network: _network, ...body } = ethBody("ethfee-no-network", { gasLimit: "21000", maxFeePerGas: "0x38d7ea4c68000" });
    expect((await cosigner.deliver(body)).verdict).toBe("canceled");
    const shape1 = {
      name: transactionName("ethfee-shape1"),
      details: { assetTransfer: { asset: "assets/native.ethereum-mainnet", amount: "1", source: HOT_WALLET, destination: EXCHANGE_ETH } },
      evmTransaction: body.evmTransaction,
    };
    const delivery = await cosigner.deliver(shape1);
    expect(delivery.verdict).toBe("canceled");
    const row = await tdb.handle.db.selectFrom("decisions").select("facts").where("transaction_name", "=", shape1.name).executeTakeFirstOrThrow();
    expect(JSON.stringify(row.facts)).toContain('"fee":{"asset":"assets/native.ethereum-mainnet","amount":"21"}');
  });

  it("BTC: an input with no amount beside a 3 BTC one does not hide the 2.999 BTC fee", async () => {
    const body = btcBody("btcfee-partial", { inputs: [{ address: { value: HOT_BTC }, amount: "3" }, { address: { value: HOT_BTC } }] });
    expect((await cosigner.deliver(body)).verdict).toBe("canceled");
    const lie = btcBody("btcfee-partial-lie", { inputs: [{ address: { value: HOT_BTC }, amount: "3" }, { address: { value: HOT_BTC } }], fee: "0.0001" });
    expect((await cosigner.deliver(lie)).status).toBe(400);
  });

  // An amount the body leaves out is one the fee cannot be read from. An
  // input of unstated amount can be worth any sum, and all of it beyond the outputs goes to the
  // miner; a change output of unstated amount can be worth nothing, and then all of the inputs
  // beyond the payments go to the miner; inputs listed with no outputs at all say nothing of where
  // their value goes. Each was signed at the small fee the body stated, or at none.
  it("BTC: an input or a change output whose amount is not stated, or inputs without outputs, are not signed at the fee the body states (or at none)", async () => {
    const hiddenInput = btcBody("btcfee-hidden-input", {
      inputs: [{ address: { value: HOT_BTC }, amount: "0.01" }, { address: { value: HOT_BTC } }],
      outputs: [
        { address: { value: EXCHANGE_BTC }, amount: "0.001" },
        { address: { value: HOT_BTC }, amount: "0.0089", change: true },
      ],
      fee: "0.0001",
    });
    const hiddenChange = btcBody("btcfee-hidden-change", {
      inputs: [{ address: { value: HOT_BTC }, amount: "3" }],
      outputs: [
        { address: { value: EXCHANGE_BTC }, amount: "0.001" },
        { address: { value: HOT_BTC }, change: true },
      ],
    });
    const hiddenChangeStatedFee = btcBody("btcfee-hidden-change-fee", { ...hiddenChange.btcTransaction, fee: "0.0001" });
    const noOutputs = btcBody("btcfee-no-outputs", { inputs: [{ address: { value: HOT_BTC }, amount: "3" }], outputs: [] });
    for (const [body, payload] of [
      [hiddenInput, "btcInputs"],
      [hiddenChange, "btcOutputs"],
      [hiddenChangeStatedFee, "btcOutputs"],
      [noOutputs, "btcOutputs"],
    ] as const) {
      const delivery = await cosigner.deliver(body);
      expect(delivery.body).toMatchObject({ signTransaction: false });
      expect(delivery.verdict).toBe("canceled");
      expect(await charges(body.name)).toEqual([]);
      const row = await tdb.handle.db.selectFrom("decisions").select("facts").where("transaction_name", "=", body.name).executeTakeFirstOrThrow();
      expect((row.facts as { tx: { kind: string; payloads: string[] } }[])[0]!.tx).toMatchObject({ kind: "unknown", payloads: [payload] });
    }
  });

  it("ETH: 1 ETH with up to 0.00063 ETH of gas (21,000 × 30 gwei) is signed and charged 1", async () => {
    const body = ethBody("ethfee-ok", { gasLimit: "21000", maxFeePerGas: "0x6fc23ac00" });
    expect((await cosigner.deliver(body)).verdict).toBe("signed");
    expect((await charges(body.name)).map((c) => c.amount)).toEqual(["1"]);
  });

  // The fee fields were delivery metadata, so a redelivery of an
  // allowed name that raised the fee past the fee rule was answered with the first allow.
  it("a redelivery of an allowed name whose stated fee rose past the fee rule is a conflicting snapshot, not a repeat", async () => {
    const body = ethBody("ethfee-raised", { gasLimit: "21000", maxFeePerGas: "0x6fc23ac00" });
    expect((await cosigner.deliver(body)).verdict).toBe("signed");
    const same = await cosigner.deliver({ ...body, evmTransaction: { ...body.evmTransaction, fee: { gasLimit: "21000", gasPrice: "0x6fc23ac00" } } });
    expect(same.body).toMatchObject({ signTransaction: true, replayOf: expect.any(String) });
    const raised = await cosigner.deliver({ ...body, evmTransaction: { ...body.evmTransaction, fee: { gasLimit: "21000", maxFeePerGas: "0x38d7ea4c68000" } } });
    expect(raised.body).toMatchObject({ signTransaction: false, reasons: ["conflicting snapshot"] });
    const btc = btcBody("btcfee-raised", {
      inputs: [{ address: { value: HOT_BTC }, amount: "0.01" }],
      outputs: [
        { address: { value: EXCHANGE_BTC }, amount: "0.001" },
        { address: { value: HOT_BTC }, amount: "0.0089", change: true },
      ],
      fee: "0.0001",
    });
    expect((await cosigner.deliver(btc)).verdict).toBe("signed");
    const bigInput = { ...btc, btcTransaction: { ...btc.btcTransaction, inputs: [{ address: { value: HOT_BTC }, amount: "3" }], fee: "2.9901" } };
    expect((await cosigner.deliver(bigInput)).body).toMatchObject({ signTransaction: false, reasons: ["conflicting snapshot"] });
    expect((await charges(btc.name)).map((c) => c.amount)).toEqual(["0.001"]);
  });
});
