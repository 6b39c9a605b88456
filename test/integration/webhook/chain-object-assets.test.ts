/**
 * A chain object (`evmTransaction`, `btcTransaction`) says what the co-signer signs on its chain;
 * the transfers say which asset the policy judges. The two were matched
 * by address and amount only, so a Bitcoin object that moves mainnet BTC (its `asset`) beside
 * transfers of testnet coins, or an EVM object that sends 100 ether (in wei) beside a transfer of
 * 100 lumens (or 100 ADA, whose decimals the body does not say), was signed as the cheaper asset. A
 * policy may well allow testnet coins, or small amounts of a cheap coin, to anyone. Over HTTP
 * against the real service.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOT_WALLET, transactionName } from "../../support/bodies.js";
import { CosignerSimulator } from "../../support/cosigner.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService, writeBundle } from "../../support/service.js";

const POLICY = `
version: "cheap-coins.1"
default: deny
rules:
  - id: transfers-only
    decision: deny
    reason: only transfers
    when: {"!==": [{"var": "tx.kind"}, "assetTransfer"]}
  - id: testnet-coins
    decision: allow
    reason: testnet coins are worth nothing
    when: {"===": [{"var": "transfer.asset"}, "assets/native.bitcoin-testnet"]}
  - id: small-xlm
    decision: allow
    reason: up to 100 XLM to anyone
    when: {"and": [{"===": [{"var": "transfer.asset"}, "assets/native.stellar-mainnet"]}, {"<=": [{"var": "transfer.amount"}, "100"]}]}
  - id: small-coins
    decision: allow
    reason: up to 100 of a custom EVM chain's coin, or of ADA, to anyone
    when: {"and": [{"in": [{"var": "transfer.asset"}, ["assets/native.custom-mainnet", "assets/native.cardano-mainnet"]]}, {"<=": [{"var": "transfer.amount"}, "100"]}]}
`;

const BTC_ATTACKER = "bc1qattacker0000000000000000000000000000000";
const EVM_ATTACKER = "0x2222222222222222222222222222222222222222";

describe("chain objects move the asset the transfers name, or the transaction is not signed", () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let cosigner: CosignerSimulator;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    // A custom EVM chain's coin has 18 decimals, ADA 6, as the operator pins them (the custody API would say so too).
    const pins = { "assets/native.custom-mainnet": 18, "assets/native.cardano-mainnet": 6 };
    service = await startTestService({ database: tdb.handle, policiesDir: writeBundle(POLICY), env: { COUNTERSIGN_ASSET_DECIMALS: JSON.stringify(pins) } });
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
  });

  const btcBody = (asset: string) => ({
    name: transactionName("btc-asset"),
    type: "TRANSACTION",
    subType: "BTC_TRANSFER",
    request: { sourceWallet: HOT_WALLET },
    transfers: [{ destinationAddress: { value: BTC_ATTACKER }, amount: "1000", asset: "assets/native.bitcoin-testnet" }],
    btcTransaction: { outputs: [{ address: { value: BTC_ATTACKER }, amount: "1000" }], asset },
  });

  const evmBody = (asset: string, amount: string, wei: string) => ({
    name: transactionName("evm-native"),
    type: "TRANSACTION",
    subType: "NATIVE_TRANSFER",
    request: { sourceWallet: HOT_WALLET },
    transfers: [{ destinationAddress: { value: EVM_ATTACKER }, amount, asset }],
    evmTransaction: { toAddress: { value: EVM_ATTACKER }, value: wei },
  });

  it("signs testnet coins whose Bitcoin object moves testnet coins (the control)", async () => {
    expect((await cosigner.deliver(btcBody("assets/native.bitcoin-testnet"))).verdict).toBe("signed");
  });

  it("does not sign testnet coins whose Bitcoin object moves mainnet BTC", async () => {
    const delivery = await cosigner.deliver(btcBody("assets/native.bitcoin-mainnet"));
    expect(delivery.verdict).not.toBe("signed");
    expect(delivery.body).not.toMatchObject({ signTransaction: true });
  });

  it("does not sign 100 XLM whose EVM object sends 100 ether", async () => {
    const delivery = await cosigner.deliver(evmBody("assets/native.stellar-mainnet", "100", "100000000000000000000"));
    expect(delivery.verdict).not.toBe("signed");
    expect(delivery.body).not.toMatchObject({ signTransaction: true });
  });

  it("checks an EVM value beside a coin of decimals the body does not say at the coin's own: 100 ADA (6 decimals) is not 100 ether", async () => {
    expect((await cosigner.deliver(evmBody("assets/native.custom-mainnet", "100", "100000000000000000000"))).verdict).toBe("signed");
    const delivery = await cosigner.deliver(evmBody("assets/native.cardano-mainnet", "100", "100000000000000000000"));
    expect(delivery).toMatchObject({ verdict: "pending", status: 400 });
    expect(JSON.stringify(delivery.body)).toContain("the value its evmTransaction sends");
  });
});
