/**
 * A redelivery of a decided transaction name is a repeat only when what would be signed is the
 * same (src/core/transaction/content-digest.ts): each case here is a body allowed once, then redelivered
 * under its name with more value, which was signed as a repeat of the first allow. Against the real service over HTTP.
 */
import { describe, expect, it } from "vitest";
import { HOT_WALLET, VAULT, transactionName } from "../../support/bodies.js";
import { fakeData } from "../../support/fake-custody-api.js";
import { serviceWithPolicy } from "../../support/service.js";
import { serviceWithSyncedWallets } from "../../support/synced-custody.js";

const POLICY = `
version: "repeat-content.1"
default: deny
rules:
  - id: fee-limit
    decision: deny
    reason: the stated network fee is above 0.01 ALEO
    when: {">": [{"var": "tx.fee.amount"}, "0.01"]}
  - id: aleo-public-transfers
    decision: allow
    when:
      and:
        - {"===": [{"var": "tx.network"}, "networks/aleo-mainnet"]}
        - {"in": ["aleo:transferPublic", {"var": "tx.payloads"}]}
        - {"<=": [{"var": "transfer.amount"}, "100"]}
`;

const SENDER = "aleo1rhgdu77hgyqd3xjj8ucu3jj9r2krwz6mnzyd80gncr5fxcwlh5rsvzp9px";
const RECIPIENT = "aleo1s3ws5tra87fjycnjrwsjcrnw2qxr8jfqqdugnf0xzqqw29q9m5pqem2u4t";
/** 0.0025 ALEO, as the transaction's total and as its fee transition's base fee. */
const FEE = { amountMicrocredits: "2500", priorityFeeMicrocredits: "0", payer: { value: SENDER } };

/** 10 ALEO from the hot wallet's account, its fee transition `feeOperation`. */
function aleoTransfer(name: string, feeOperation: Record<string, unknown>) {
  return {
    name,
    type: "TRANSACTION",
    subType: "NATIVE_TRANSFER",
    state: "AWAITING_SIGNATURE",
    network: "networks/aleo-mainnet",
    request: { sourceWallet: HOT_WALLET, initiator: "users/ops@example.com" },
    transfers: [{ sourceAddress: { value: SENDER }, destinationAddress: { value: RECIPIENT }, amount: "10", asset: "assets/native.aleo-mainnet" }],
    aleoTransaction: {
      feeMicrocredits: "2500",
      feeOperation,
      operations: [{ program: "credits.aleo", transition: "transfer_public", transferPublic: { sender: { value: SENDER }, recipient: { value: RECIPIENT }, amount: "10000000" } }],
    },
  };
}

describe("Aleo: the fee transition a transaction signs", () => {
  const s = serviceWithPolicy(POLICY);

  it("a priority fee of 900,000 ALEO beside a stated total of 0.0025 is the fee the policy judges: cancelled by the fee cap", async () => {
    const delivery = await s.cosigner.deliver(aleoTransfer(transactionName("aleo"), { ...FEE, priorityFeeMicrocredits: "900000000000" }));
    expect(delivery.body).toMatchObject({ signTransaction: false, reasons: ["the stated network fee is above 0.01 ALEO"] });
  });

  it("a redelivery raising the priority fee of an allowed transfer is a conflicting snapshot, not a repeat", async () => {
    const name = transactionName("aleo");
    expect((await s.cosigner.deliver(aleoTransfer(name, FEE))).verdict).toBe("signed");
    const raised = await s.cosigner.deliver(aleoTransfer(name, { ...FEE, priorityFeeMicrocredits: "9000" }));
    expect(raised.body).toMatchObject({ signTransaction: false, reasons: ["conflicting snapshot"] });
  });

  it("a redelivery naming another account as the fee's payer is a conflicting snapshot, not a repeat", async () => {
    const name = transactionName("aleo");
    expect((await s.cosigner.deliver(aleoTransfer(name, FEE))).verdict).toBe("signed");
    const otherPayer = await s.cosigner.deliver(aleoTransfer(name, { ...FEE, payer: { value: RECIPIENT } }));
    expect(otherPayer.body).toMatchObject({ signTransaction: false, reasons: ["conflicting snapshot"] });
  });

  it("a redelivery whose payer only gains a hint (infoRef) is a repeat", async () => {
    const name = transactionName("aleo");
    const first = await s.cosigner.deliver(aleoTransfer(name, FEE));
    expect(first.verdict).toBe("signed");
    const hinted = await s.cosigner.deliver(aleoTransfer(name, { ...FEE, payer: { value: SENDER, infoRef: "wallets/7a8b9c0d1e2f" } }));
    expect(hinted.body).toMatchObject({ signTransaction: true, replayOf: (first.body as { decisionId: string }).decisionId });
  });
});

const BTC_POLICY = `
version: "repeat-content-btc.1"
default: deny
rules:
  - id: fee-limit
    decision: deny
    reason: the stated network fee is above 0.001 BTC
    when: {">": [{"var": "tx.fee.amount"}, "0.001"]}
  - id: plain-btc-transfers
    decision: allow
    when:
      and:
        - {"===": [{"var": "tx.kind"}, "assetTransfer"]}
        - {"===": [{"var": "transfer.asset"}, "assets/native.bitcoin-mainnet"]}
        - {"<=": [{"var": "transfer.amount"}, "0.5"]}
`;

const HOT_BTC = "bc1qhotwallet0000000000000000000000000000a";
const EXCHANGE_BTC = "bc1qexchange0000000000000000000000000000q";

/** 0.001 BTC from the hot wallet to an exchange, spending `inputs` at the hot wallet's address, 0.0001 to the miner. */
function btcTransfer(name: string, inputs: Record<string, unknown>[]) {
  return {
    name,
    type: "TRANSACTION",
    subType: "BTC_TRANSFER",
    state: "AWAITING_SIGNATURE",
    network: "networks/bitcoin-mainnet",
    request: { initiator: "users/ops@treasury.example", sourceWallet: HOT_WALLET },
    transfers: [{ destinationAddress: { value: EXCHANGE_BTC }, amount: "0.001", asset: "assets/native.bitcoin-mainnet" }],
    btcTransaction: { inputs, outputs: [{ address: { value: EXCHANGE_BTC }, amount: "0.001" }], fee: "0.0001", asset: "assets/native.bitcoin-mainnet" },
  };
}

describe("Bitcoin: what the inputs are worth", () => {
  const s = serviceWithSyncedWallets(BTC_POLICY, VAULT.slice("vaults/".length), [
    fakeData.wallet(VAULT.slice("vaults/".length), HOT_WALLET.split("/").at(-1)!, [{ id: "a0", address: HOT_BTC, network: "networks/bitcoin-mainnet" }]),
  ]);
  const stated = [
    { address: { value: HOT_BTC }, amount: "0.0006" },
    { address: { value: HOT_BTC }, amount: "0.0005" },
  ];

  it("an input that states no amount is not signed when first delivered (its worth beyond the outputs goes to the miner)", async () => {
    const delivery = await s.cosigner.deliver(btcTransfer(transactionName("btc"), [stated[0]!, { address: { value: HOT_BTC } }]));
    expect(delivery.body).toMatchObject({ signTransaction: false });
  });

  it("a redelivery of an allowed transfer whose input no longer states its amount is a conflicting snapshot, not a repeat", async () => {
    const name = transactionName("btc");
    expect((await s.cosigner.deliver(btcTransfer(name, stated))).verdict).toBe("signed");
    const unstated = await s.cosigner.deliver(btcTransfer(name, [stated[0]!, { address: { value: HOT_BTC } }]));
    expect(unstated.body).toMatchObject({ signTransaction: false, reasons: ["conflicting snapshot"] });
  });
});

const ETH_POLICY = `
version: "repeat-content-eth.1"
default: deny
rules:
  - id: fee-limit
    decision: deny
    reason: the stated network fee is above 0.01 ETH
    when: {"and": [{"===": [{"var": "tx.fee.asset"}, "assets/native.ethereum-mainnet"]}, {">": [{"var": "tx.fee.amount"}, "0.01"]}]}
  - id: plain-eth-transfers
    decision: allow
    when:
      and:
        - {"===": [{"var": "tx.kind"}, "assetTransfer"]}
        - {"===": [{"var": "transfer.asset"}, "assets/native.ethereum-mainnet"]}
        - {"<=": [{"var": "transfer.amount"}, "2"]}
`;

const HOT_ETH = "0x8ba1f109551bd432803012645ac136ddd64dba72";
const EXCHANGE_ETH = "0x52908400098527886e0f7030069857d2e4169ee7";

/** 1 ETH from the hot wallet to an exchange, its gas `fee` as the API states it. */
function ethTransfer(name: string, fee: Record<string, string>) {
  return {
    name,
    type: "TRANSACTION",
    subType: "NATIVE_TRANSFER",
    state: "AWAITING_SIGNATURE",
    network: "networks/ethereum-mainnet",
    request: { initiator: "users/ops@treasury.example", sourceWallet: HOT_WALLET },
    transfers: [{ sourceAddress: { value: HOT_ETH }, destinationAddress: { value: EXCHANGE_ETH }, amount: "1", asset: "assets/native.ethereum-mainnet" }],
    evmTransaction: { fromAddress: { value: HOT_ETH }, toAddress: { value: EXCHANGE_ETH }, value: "1000000000000000000", fee },
  };
}

describe("EVM: a priority fee stated without a maximum fee per gas", () => {
  const s = serviceWithSyncedWallets(ETH_POLICY, VAULT.slice("vaults/".length), [
    fakeData.wallet(VAULT.slice("vaults/".length), HOT_WALLET.split("/").at(-1)!, [{ id: "a1", address: HOT_ETH, network: "networks/ethereum-mainnet" }]),
  ]);
  /** 1 gwei of priority fee per gas. */
  const ONE_GWEI = { gasLimit: "21000", maxPriorityFeePerGas: "0x3b9aca00" };
  /** 10^15 wei (0.001 ETH) per gas: at least 21 ETH for the transfer's 21,000 gas. */
  const LAVISH = { gasLimit: "21000", maxPriorityFeePerGas: "0x38d7ea4c68000" };

  it("is the least the transaction pays per gas: 21 ETH of priority fee is cancelled by the fee cap", async () => {
    const delivery = await s.cosigner.deliver(ethTransfer(transactionName("eth"), LAVISH));
    expect(delivery.body).toMatchObject({ signTransaction: false, reasons: ["the stated network fee is above 0.01 ETH"] });
  });

  it("a redelivery of an allowed transfer raising it is a conflicting snapshot, not a repeat", async () => {
    const name = transactionName("eth");
    expect((await s.cosigner.deliver(ethTransfer(name, ONE_GWEI))).verdict).toBe("signed");
    const raised = await s.cosigner.deliver(ethTransfer(name, LAVISH));
    expect(raised.body).toMatchObject({ signTransaction: false, reasons: ["conflicting snapshot"] });
  });
});
