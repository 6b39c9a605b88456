/**
 * `evmTransaction.fromAddress` is the account the platform signs from. A source named by wallet
 * beside it is checked against the synced copy: a sender the copy gives to another wallet of the
 * vault is refused (400). Found by a review of this stop's changes: the other chains' senders are
 * refused unless written as their chain reads accounts, but the EVM one was compared as written, so
 * the cold wallet's address spelt `0X…`, without `0x` or as 32 bytes was not found in the copy and
 * a transfer "from the hot wallet" that the cold wallet pays was signed under a policy that
 * refuses the cold wallet's. Through the real service, with address-book sync.
 */
import { describe, expect, it } from "vitest";
import { COLD_WALLET, HOT_WALLET, VAULT, transactionName } from "../support/bodies.js";
import { fakeData } from "../support/fake-custody-api.js";
import { serviceWithSyncedWallets } from "../support/synced-custody.js";

const ETH = "assets/native.ethereum-mainnet";
const HOT = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
const COLD = "0x52908400098527886E0F7030069857D2E4169EE7";
const EXCHANGE = "0x1111111111111111111111111111111111111111";

const POLICY = `
version: "evm-sender.1"
default: deny
rules:
  - id: cold-wallet-needs-review
    decision: deny
    reason: the cold wallet does not pay automatically
    when: {"===": [{"var": "transfer.source.wallet"}, "${COLD_WALLET}"]}
  - id: eth
    decision: allow
    when: {"===": [{"var": "transfer.asset"}, "${ETH}"]}
`;

/** 1 ETH to the exchange "from the hot wallet" (request.sourceWallet), paid by `from`. */
const body = (from: string) => ({
  name: transactionName("evm-sender"),
  type: "TRANSACTION",
  subType: "NATIVE_TRANSFER",
  state: "AWAITING_SIGNATURE",
  network: "networks/ethereum-mainnet",
  request: { initiator: "users/ops@treasury.example", sourceWallet: HOT_WALLET },
  transfers: [{ destinationAddress: { value: EXCHANGE }, amount: "1", asset: ETH }],
  evmTransaction: { fromAddress: { value: from }, toAddress: { value: EXCHANGE }, value: "1000000000000000000" },
});

describe("an EVM sender beside a source named by wallet, with address-book sync", () => {
  const VAULT_ID = VAULT.slice("vaults/".length);
  const walletOf = (wallet: string, address: string) => fakeData.wallet(VAULT_ID, wallet.split("/").at(-1)!, [{ id: "a0", address, network: "networks/ethereum-mainnet" }]);
  const suite = serviceWithSyncedWallets(POLICY, VAULT_ID, [walletOf(HOT_WALLET, HOT), walletOf(COLD_WALLET, COLD)]);

  it("signs the hot wallet's own sender and refuses the cold wallet's (400)", async () => {
    expect((await suite.cosigner.deliver(body(HOT))).verdict).toBe("signed");
    const cold = await suite.cosigner.deliver(body(COLD));
    expect(cold).toMatchObject({ verdict: "pending", status: 400 });
    expect(JSON.stringify(cold.body)).toContain("evmTransaction.fromAddress belongs to another wallet of the vault");
  });

  it.each([
    ["0X and its digits", `0X${COLD.slice(2)}`],
    ["its digits alone", COLD.slice(2)],
    ["32 bytes", `0x${"0".repeat(24)}${COLD.slice(2)}`],
    ["an ENS name", "cold-wallet.eth"],
  ])("refuses the cold wallet's sender spelt as %s (400), never signs it", async (_spelling, from) => {
    const delivery = await suite.cosigner.deliver(body(from));
    expect(delivery).toMatchObject({ verdict: "pending", status: 400 });
    expect(JSON.stringify(delivery.body)).toContain("evmTransaction.fromAddress.value");
  });
});
