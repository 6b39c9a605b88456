/**
 * The sender and the fee a Sui, Aptos or Tron chain object states are what the platform signs
 * from, so they are part of what was decided. They were
 * delivery metadata, so after an allow of 1 SUI from the hot wallet with a 0.005 SUI gas budget, a
 * redelivery of the same name naming another sender and a 1,000 SUI budget had the same content
 * digest and was signed again as a repeat; no rule could cap these fees (`tx.fee` was null), and
 * a sender that was not the transfer's source was never compared. Through the real service.
 */
import { describe, expect, it } from "vitest";
import { COLD_WALLET, HOT_WALLET, VAULT, transactionName } from "../../support/bodies.js";
import { fakeData } from "../../support/fake-custody-api.js";
import { serviceWithPolicy } from "../../support/service.js";
import { serviceWithSyncedWallets } from "../../support/synced-custody.js";

const SUI = "assets/native.sui-mainnet";
const APT = "assets/native.aptos-mainnet";
const HOT_SUI = `0x${"11".repeat(32)}`;
const OTHER_SUI = `0x${"33".repeat(32)}`;
const EXCHANGE_SUI = `0x${"22".repeat(32)}`;

const POLICY = `
version: "chain-senders.1"
default: deny
rules:
  - id: fee-limit
    decision: deny
    reason: the stated network fee is above 0.1 SUI or 0.1 APT
    when:
      or:
        - {"and": [{"===": [{"var": "tx.fee.asset"}, "${SUI}"]}, {">": [{"var": "tx.fee.amount"}, "0.1"]}]}
        - {"and": [{"===": [{"var": "tx.fee.asset"}, "${APT}"]}, {">": [{"var": "tx.fee.amount"}, "0.1"]}]}
  - id: native-transfers
    decision: allow
    when: {"and": [{"===": [{"var": "tx.kind"}, "assetTransfer"]}, {"in": [{"var": "transfer.asset"}, ["${SUI}", "${APT}"]]}]}
`;

function suiBody(name: string, suiTransaction: Record<string, unknown>, source: string | null = null) {
  return {
    name,
    type: "TRANSACTION",
    subType: "NATIVE_TRANSFER",
    state: "AWAITING_SIGNATURE",
    network: "networks/sui-mainnet",
    request: { initiator: "users/ops@treasury.example", sourceWallet: HOT_WALLET },
    transfers: [{ ...(source === null ? {} : { sourceAddress: { value: source } }), destinationAddress: { value: EXCHANGE_SUI }, amount: "1", asset: SUI }],
    suiTransaction,
  };
}

describe("Sui and Aptos senders and fees, over HTTP", () => {
  const suite = serviceWithPolicy(POLICY);

  it("a redelivery naming another sender and a 1,000 SUI gas budget is a conflicting snapshot, not a repeat of the allow", async () => {
    const name = transactionName("sui-replay");
    const first = await suite.cosigner.deliver(suiBody(name, { sender: { value: HOT_SUI }, gasBudget: "5000000", gasPrice: "750" }));
    expect(first.verdict).toBe("signed");
    const again = await suite.cosigner.deliver(suiBody(name, { sender: { value: HOT_SUI }, gasBudget: "5000000", gasPrice: "750" }));
    expect(again.verdict).toBe("signed");
    const changed = await suite.cosigner.deliver(suiBody(name, { sender: { value: OTHER_SUI }, gasBudget: "1000000000000", gasPrice: "999999999" }));
    expect(changed.body).toMatchObject({ signTransaction: false, reasons: ["conflicting snapshot"] });
    expect(changed.verdict).toBe("canceled");
  });

  it("a redelivery changing only the sender, or only the gas budget, is a conflicting snapshot", async () => {
    for (const suiTransaction of [
      { sender: { value: OTHER_SUI }, gasBudget: "5000000" },
      { sender: { value: HOT_SUI }, gasBudget: "50000000" },
    ]) {
      const name = transactionName("sui-one-change");
      expect((await suite.cosigner.deliver(suiBody(name, { sender: { value: HOT_SUI }, gasBudget: "5000000" }))).verdict).toBe("signed");
      expect((await suite.cosigner.deliver(suiBody(name, suiTransaction))).body).toMatchObject({ signTransaction: false, reasons: ["conflicting snapshot"] });
    }
  });

  it("a 1,000 SUI gas budget is cancelled by the fee rule", async () => {
    const delivery = await suite.cosigner.deliver(suiBody(transactionName("sui-fee"), { sender: { value: HOT_SUI }, gasBudget: "1000000000000" }));
    expect(delivery.verdict).toBe("canceled");
  });

  it("an Aptos gas limit × price of 2 APT is cancelled by the fee rule; 0.002 APT is signed", async () => {
    const aptos = (maxGasAmount: string) => ({
      ...suiBody(transactionName("aptos-fee"), {}),
      network: "networks/aptos-mainnet",
      transfers: [{ sourceAddress: { value: `0x${"0".repeat(63)}1` }, destinationAddress: { value: EXCHANGE_SUI }, amount: "1", asset: APT }],
      suiTransaction: undefined,
      // The sender written short, as Aptos writes its special accounts: its 32 bytes are the source's.
      aptosTransaction: { sender: { value: "0x1" }, maxGasAmount, gasUnitPrice: "100" },
    });
    expect((await suite.cosigner.deliver(aptos("2000000"))).verdict).toBe("canceled");
    expect((await suite.cosigner.deliver(aptos("2000"))).verdict).toBe("signed");
  });

  it("a sender that is not the transfer's raw source is refused (400) and left pending", async () => {
    const delivery = await suite.cosigner.deliver(suiBody(transactionName("sui-sender"), { sender: { value: OTHER_SUI }, gasBudget: "5000000" }, HOT_SUI));
    expect(delivery.status).toBe(400);
    expect(JSON.stringify(delivery.body)).toContain("suiTransaction.sender.value");
    expect(delivery.verdict).toBe("pending");
  });
});

describe("a source named by wallet beside a Sui or TON sender, with address-book sync", () => {
  const VAULT_ID = VAULT.slice("vaults/".length);
  const COLD_SUI = `0x${"0".repeat(63)}c`;
  const TON_NET = "networks/ton-mainnet";
  const HOT_TON_RAW = "0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8";
  const COLD_TON = "Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF";
  const walletOf = (wallet: string, sui: string, ton: string) =>
    fakeData.wallet(VAULT_ID, wallet.split("/").at(-1)!, [
      { id: "a0", address: sui, network: "networks/sui-mainnet" },
      { id: "a1", address: ton, network: TON_NET },
    ]);
  const synced = serviceWithSyncedWallets(POLICY, VAULT_ID, [walletOf(HOT_WALLET, HOT_SUI, HOT_TON_RAW), walletOf(COLD_WALLET, COLD_SUI, COLD_TON)]);

  it("a Sui sender the copy gives to another wallet, even written short (0xc), is refused (400); the hot wallet's own is signed", async () => {
    const cold = await synced.cosigner.deliver(suiBody(transactionName("sui-cold"), { sender: { value: "0xc" }, gasBudget: "5000000" }));
    expect(cold).toMatchObject({ verdict: "pending", status: 400, body: { error: { code: "INVALID_TRANSACTION" } } });
    expect(JSON.stringify(cold.body)).toContain("suiTransaction.sender belongs to another wallet of the vault");
    expect((await synced.cosigner.deliver(suiBody(transactionName("sui-hot"), { sender: { value: HOT_SUI }, gasBudget: "5000000" }))).verdict).toBe("signed");
  });

  it("a TON sender the copy gives to another wallet is refused (400)", async () => {
    const ton = {
      ...suiBody(transactionName("ton-cold"), {}),
      network: TON_NET,
      transfers: [{ destinationAddress: { value: COLD_TON }, amount: "1", asset: "assets/native.ton-mainnet" }],
      suiTransaction: undefined,
      tonTransaction: { sender: { value: COLD_TON } },
    };
    const delivery = await synced.cosigner.deliver(ton);
    expect(delivery).toMatchObject({ verdict: "pending", status: 400 });
    expect(JSON.stringify(delivery.body)).toContain("tonTransaction.sender belongs to another wallet of the vault");
  });
});
