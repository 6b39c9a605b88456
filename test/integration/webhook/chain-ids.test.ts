/**
 * `aptosTransaction.chainId` and `substrateTransaction.genesisHash` say which chain the signature
 * is valid on, and the policy judges the body by its `network`. Nothing compared
 * them, so a transfer labelled `networks/aptos-testnet` carrying Aptos mainnet's chain id (1) was
 * signed by a policy that lets test networks through, and the signature moved mainnet APT. Now a
 * chain the network contradicts is refused (400) and left pending. Through the real service.
 */
import { describe, expect, it } from "vitest";
import { HOT_WALLET, transactionName } from "../../support/bodies.js";
import { serviceWithPolicy } from "../../support/service.js";

const APTOS_SOURCE = `0x${"0".repeat(63)}1`;
const APTOS_EXCHANGE = `0x${"22".repeat(32)}`;
const POLKADOT_GENESIS = "0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3";
const WESTEND_GENESIS = "0xe143f23803ac50e8f6f8e62695d1ce9e4e1d68aa36c1cd2cfd15340213f3423e";
const ALICE_SS58 = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY";
const BOB_SS58 = "5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty";

/** Test networks are lax: anything on them is signed; anything else is denied. */
const POLICY = `
version: "testnets-permissive.1"
default: deny
rules:
  - id: test-networks
    decision: allow
    when: {"in": [{"var": "tx.network"}, ["networks/aptos-testnet", "networks/westend-testnet"]]}
`;

function aptosBody(chainId: string) {
  return {
    name: transactionName("aptos-chain"),
    type: "TRANSACTION",
    subType: "NATIVE_TRANSFER",
    state: "AWAITING_SIGNATURE",
    network: "networks/aptos-testnet",
    request: { initiator: "users/ops@treasury.example", sourceWallet: HOT_WALLET },
    transfers: [{ sourceAddress: { value: APTOS_SOURCE }, destinationAddress: { value: APTOS_EXCHANGE }, amount: "10000", asset: "assets/native.aptos-testnet" }],
    aptosTransaction: { sender: { value: APTOS_SOURCE }, chainId },
  };
}

function substrateBody(genesisHash: string) {
  return {
    name: transactionName("substrate-chain"),
    type: "TRANSACTION",
    subType: "NATIVE_TRANSFER",
    state: "AWAITING_SIGNATURE",
    network: "networks/westend-testnet",
    request: { initiator: "users/ops@treasury.example", sourceWallet: HOT_WALLET },
    transfers: [{ sourceAddress: { value: ALICE_SS58 }, destinationAddress: { value: BOB_SS58 }, amount: "10000", asset: "assets/native.westend-testnet" }],
    substrateTransaction: { fromAddress: { value: ALICE_SS58 }, genesisHash },
  };
}

describe("the chain a signature is valid on, against the network the policy judges, over HTTP", () => {
  const suite = serviceWithPolicy(POLICY);

  it("an aptos-testnet transfer carrying Aptos mainnet's chain id (1) is refused (400) and left pending", async () => {
    const delivery = await suite.cosigner.deliver(aptosBody("1"));
    expect(delivery).toMatchObject({ verdict: "pending", status: 400, body: { error: { code: "INVALID_TRANSACTION" } } });
    expect(JSON.stringify(delivery.body)).toContain("aptosTransaction.chainId: is Aptos mainnet's chain id (1), and the transaction's network is a test network");
  });

  it("the same transfer with Aptos testnet's chain id (2) is signed by the permissive policy", async () => {
    expect((await suite.cosigner.deliver(aptosBody("2"))).verdict).toBe("signed");
  });

  it("a westend-testnet transfer carrying Polkadot's genesis hash is refused (400); Westend's is signed", async () => {
    const delivery = await suite.cosigner.deliver(substrateBody(POLKADOT_GENESIS));
    expect(delivery).toMatchObject({ verdict: "pending", status: 400, body: { error: { code: "INVALID_TRANSACTION" } } });
    expect(JSON.stringify(delivery.body)).toContain("substrateTransaction.genesisHash: is Polkadot's genesis hash, and the transaction's network names another chain");
    expect((await suite.cosigner.deliver(substrateBody(WESTEND_GENESIS))).verdict).toBe("signed");
  });
});
