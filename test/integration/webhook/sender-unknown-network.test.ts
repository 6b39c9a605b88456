/**
 * A chain object's sender beside a source named by wallet is checked against the synced copy
 * (verify-claims.ts): the copy looks an address up on a network. A transfer whose network is unknown — an opaque asset id and no `network` — skipped the
 * check, so a transfer "from the hot wallet" that the cold wallet's `evmTransaction.fromAddress`
 * pays was signed under a policy that refuses the cold wallet's; so was a raw source the copy gives
 * to the cold wallet, claimed for the hot wallet. Through the real service, with address-book sync.
 */
import { describe, expect, it } from "vitest";
import { COLD_WALLET, HOT_WALLET, VAULT, transactionName } from "../../support/bodies.js";
import { fakeData } from "../../support/fake-custody-api.js";
import { serviceWithSyncedWallets } from "../../support/synced-custody.js";

/** An opaque asset id: nothing in it names a network. */
const OPAQUE = "assets/e72ff35a5b15";
const HOT = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
const COLD = "0x52908400098527886E0F7030069857D2E4169EE7";
const EXCHANGE = "0x1111111111111111111111111111111111111111";

const POLICY = `
version: "sender-unknown-network.1"
default: deny
rules:
  - id: cold-wallet-needs-review
    decision: deny
    reason: the cold wallet does not pay automatically
    when: {"===": [{"var": "transfer.source.wallet"}, "${COLD_WALLET}"]}
  - id: anything-else
    decision: allow
    when: {"===": [{"var": "transfer.asset"}, "${OPAQUE}"]}
`;

const evm = (from: string) => ({ evmTransaction: { fromAddress: { value: from } } });

/** Shape 1: a transfer from the hot wallet by name, no network anywhere, paid by `from`. */
const reference = (id: string, from: string) => ({
  name: transactionName(id),
  details: { assetTransfer: { asset: OPAQUE, amount: "1", source: HOT_WALLET, destination: EXCHANGE } },
  ...evm(from),
});

/** Shape 2 without `network`: the source is `request.sourceWallet`. */
const api = (id: string, from: string) => ({
  name: transactionName(id),
  type: "TRANSACTION",
  subType: "TOKEN_TRANSFER",
  state: "AWAITING_SIGNATURE",
  request: { initiator: "users/ops@treasury.example", sourceWallet: HOT_WALLET },
  transfers: [{ destinationAddress: { value: EXCHANGE }, amount: "1", asset: OPAQUE }],
  ...evm(from),
});

describe("a chain object's sender beside a transfer whose network is unknown, with address-book sync", () => {
  const VAULT_ID = VAULT.slice("vaults/".length);
  const walletOf = (wallet: string, address: string) => fakeData.wallet(VAULT_ID, wallet.split("/").at(-1)!, [{ id: "a0", address, network: "networks/ethereum-mainnet" }]);
  const suite = serviceWithSyncedWallets(POLICY, VAULT_ID, [walletOf(HOT_WALLET, HOT), walletOf(COLD_WALLET, COLD)]);

  it.each([
    ["shape 1", reference],
    ["shape 2 without network", api],
  ])("%s: the cold wallet's sender is refused (400), never signed", async (_shape, make) => {
    const cold = await suite.cosigner.deliver(make(`cold-${_shape.length}`, COLD));
    expect(cold).toMatchObject({ verdict: "pending", status: 400 });
    expect(JSON.stringify(cold.body)).toContain("evmTransaction.fromAddress belongs to another wallet of the vault");
  });

  // The same look-up for a raw source against request.sourceWallet: the cold wallet's address as
  // the source of a transfer claimed for the hot wallet was judged as the hot wallet's.
  it("a raw source the copy gives to the cold wallet, claimed for the hot wallet, is refused (400)", async () => {
    const body = api("raw-cold", HOT);
    delete (body as Record<string, unknown>).evmTransaction;
    body.transfers = [{ ...body.transfers[0]!, sourceAddress: { value: COLD } } as (typeof body.transfers)[number]];
    const cold = await suite.cosigner.deliver(body);
    expect(cold).toMatchObject({ verdict: "pending", status: 400 });
    expect(JSON.stringify(cold.body)).toContain("the source address belongs to another wallet of the vault than request.sourceWallet");
  });

  it.each([
    ["shape 1", reference],
    ["shape 2 without network", api],
  ])("%s: the hot wallet's own sender is still signed", async (_shape, make) => {
    expect((await suite.cosigner.deliver(make(`hot-${_shape.length}`, HOT))).verdict).toBe("signed");
  });
});
