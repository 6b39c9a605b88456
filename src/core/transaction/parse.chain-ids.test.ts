/**
 * `aptosTransaction.chainId` and `substrateTransaction.genesisHash` decide which chain the
 * signature is valid on; they must not contradict the network the policy judges the body by
 * (chain-ids.ts). An `aptos-testnet` body with Aptos mainnet's chain id was
 * judged as testnet while its signature moved mainnet coins.
 */
import { describe, expect, it } from "vitest";
import { parseTransaction } from "./parse.js";
import { TX_NAME, WALLET, type Body } from "./test-bodies.js";

const APTOS_SOURCE = `0x${"0".repeat(63)}a`;
const APTOS_OTHER = `0x${"0".repeat(63)}b`;
const ALICE_SS58 = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY";
const BOB_SS58 = "5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty";
// polkadot-js/common packages/networks/src/defaults/genesis.ts
const POLKADOT = "0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3";
const KUSAMA = "0xb0a8d493285c2df73290dfb7e61f870f17b41801197a149ca93654499ea3dafe";
const WESTEND = "0xe143f23803ac50e8f6f8e62695d1ce9e4e1d68aa36c1cd2cfd15340213f3423e";
const POLKADOT_ASSET_HUB = "0x68d56f15f85d3136970ec16946040bc1752654e906147f7e43e9d539d7c3de2f";
const KUSAMA_ASSET_HUB = "0x48239ef607d7928874027a43a67689209727dfb3d3dc5e5b03a39bdc2eda771a";
// Not in polkadot-js/common (it lists no testnet parachain): PolkaGate's constants (WESTMINT_GENESIS_HASH).
const WESTEND_ASSET_HUB = "0x67f9723393ef76214df0118c34bbbd3dbebc8ed46a10973a8c969d48fe7598c9";
/** A parachain's genesis hash not known here (Acala's). */
const ACALA = "0xfc41b9bd8ef8fe53d58c7ea67c794c7ec9a73daf05e6d54b14ff6342c99ba64c";

/** An API-shape transfer on `network` (null: the body names none, only the asset does). */
function body(network: string | null, assetNetwork: string, source: string, destination: string, chainObject: Body): Body {
  return {
    name: TX_NAME,
    type: "TRANSACTION",
    subType: "NATIVE_TRANSFER",
    ...(network === null ? {} : { network: `networks/${network}` }),
    request: { sourceWallet: WALLET },
    transfers: [{ sourceAddress: { value: source }, destinationAddress: { value: destination }, amount: "1", asset: `assets/native.${assetNetwork}` }],
    ...chainObject,
  };
}

const aptos = (network: string | null, chainId: unknown, assetNetwork = network ?? "aptos-testnet"): Body =>
  body(network, assetNetwork, APTOS_SOURCE, APTOS_OTHER, { aptosTransaction: { sender: { value: APTOS_SOURCE }, chainId } });
const substrate = (network: string | null, genesisHash: unknown, assetNetwork = network ?? "polkadot-testnet"): Body =>
  body(network, assetNetwork, ALICE_SS58, BOB_SS58, { substrateTransaction: { fromAddress: { value: ALICE_SS58 }, genesisHash } });

function refusal(input: Body): string {
  const result = parseTransaction(input);
  if (result.ok) throw new Error("expected the body to be refused");
  expect(result.error.code).toBe("INVALID_TRANSACTION");
  return result.error.publicMessage;
}

function accepted(input: Body): void {
  const result = parseTransaction(input);
  if (!result.ok) throw new Error(result.error.publicMessage);
}

const MAINNET_ON_TEST = "aptosTransaction.chainId: is Aptos mainnet's chain id (1), and the transaction's network is a test network";

describe("aptosTransaction.chainId against the network", () => {
  it.each([
    ["aptos-testnet", "1", MAINNET_ON_TEST],
    ["aptos-devnet", "1", MAINNET_ON_TEST],
    ["aptos-localnet", "1", MAINNET_ON_TEST],
    // Leading zeros are the same integer: compared as one, not as text.
    ["aptos-testnet", "0001", MAINNET_ON_TEST],
    ["aptos-mainnet", "2", "aptosTransaction.chainId: is not Aptos mainnet's chain id (1), and the transaction's network is Aptos mainnet"],
    ["aptos-testnet", "3", "aptosTransaction.chainId: is not Aptos testnet's chain id (2), and the transaction's network is Aptos testnet"],
  ])("on %s, chain id %s is refused (400)", (network, chainId, message) => {
    expect(refusal(aptos(network, chainId))).toBe(message);
  });

  it.each([
    ["aptos-mainnet", "1"],
    ["aptos-testnet", "2"],
    ["aptos-devnet", "165"],
    // A name with no net word says nothing to compare with.
    ["aptos-custom", "1"],
    // Another chain of the Aptos family has its own mainnet id (Movement's is 126).
    ["movement-mainnet", "126"],
  ])("on %s, chain id %s is accepted", (network, chainId) => {
    accepted(aptos(network, chainId));
  });

  it("is compared with the network the transfers' assets name when the body names none", () => {
    expect(refusal(aptos(null, "1", "aptos-testnet"))).toBe(MAINNET_ON_TEST);
    accepted(aptos(null, "2", "aptos-testnet"));
  });

  it("an asset naming its network in capitals names the same network", () => {
    expect(refusal(aptos(null, "1", "APTOS-TESTNET"))).toBe(MAINNET_ON_TEST);
  });

  it.each([[1], ["0x1"], ["1.0"], [" 1"], [""]])("chain id %j is not one the chain reads: refused (400), it cannot be compared", (chainId) => {
    expect(refusal(aptos("aptos-testnet", chainId))).toMatch(/^aptosTransaction\.chainId: must be /);
  });

  it("is named by its path in a wrapped body", () => {
    expect(refusal({ transaction: aptos("aptos-testnet", "1") })).toBe(`transaction.${MAINNET_ON_TEST}`);
  });

  it("absent or null: nothing to compare", () => {
    accepted(aptos("aptos-testnet", null));
  });
});

describe("substrateTransaction.genesisHash against the network", () => {
  const OTHER_CHAIN = (label: string) => `substrateTransaction.genesisHash: is ${label}'s genesis hash, and the transaction's network names another chain`;
  const ON_TEST = (label: string) => `substrateTransaction.genesisHash: is ${label}'s genesis hash, and the transaction's network is a test network`;

  it.each([
    ["polkadot-mainnet", KUSAMA, OTHER_CHAIN("Kusama")],
    ["kusama-mainnet", POLKADOT, OTHER_CHAIN("Polkadot")],
    ["polkadot-mainnet", WESTEND, OTHER_CHAIN("Westend")],
    ["westend-testnet", POLKADOT, OTHER_CHAIN("Polkadot")],
    ["polkadot-testnet", POLKADOT, ON_TEST("Polkadot")],
    ["kusama-devnet", KUSAMA, ON_TEST("Kusama")],
    ["paseo-testnet", POLKADOT, ON_TEST("Polkadot")],
    ["substrate-mainnet", WESTEND, "substrateTransaction.genesisHash: is Westend's genesis hash, a test network's, and the transaction's network is a mainnet"],
    // The hash in capitals and without 0x is the same hash.
    ["polkadot-mainnet", KUSAMA.slice(2).toUpperCase(), OTHER_CHAIN("Kusama")],
    // Balances live on the Asset Hubs since their migrations: their hashes say mainnet or test too.
    ["polkadot-testnet", POLKADOT_ASSET_HUB, ON_TEST("Polkadot Asset Hub")],
    ["westend-testnet", POLKADOT_ASSET_HUB, OTHER_CHAIN("Polkadot Asset Hub")],
    ["polkadot-mainnet", KUSAMA_ASSET_HUB, OTHER_CHAIN("Kusama Asset Hub")],
    ["substrate-mainnet", WESTEND_ASSET_HUB, "substrateTransaction.genesisHash: is Westend Asset Hub's genesis hash, a test network's, and the transaction's network is a mainnet"],
  ])("on %s, genesis hash %s is refused (400)", (network, hash, message) => {
    expect(refusal(substrate(network, hash))).toBe(message);
  });

  it.each([
    ["polkadot-mainnet", POLKADOT],
    ["kusama-mainnet", KUSAMA],
    ["westend-testnet", WESTEND],
    ["polkadot-mainnet", POLKADOT.toUpperCase().replace("0X", "0x")],
    // An Asset Hub on its relay chain's network.
    ["polkadot-mainnet", POLKADOT_ASSET_HUB],
    ["kusama-mainnet", KUSAMA_ASSET_HUB],
    ["westend-testnet", WESTEND_ASSET_HUB],
    // A chain not known here (a parachain) is compared with nothing.
    ["polkadot-mainnet", ACALA],
    ["polkadot-testnet", ACALA],
  ])("on %s, genesis hash %s is accepted", (network, hash) => {
    accepted(substrate(network, hash));
  });

  it("is compared with the network the transfers' assets name when the body names none", () => {
    expect(refusal(substrate(null, POLKADOT, "westend-testnet"))).toBe(OTHER_CHAIN("Polkadot"));
  });

  it.each([["0x1234"], [`0X${POLKADOT.slice(2)}`], [`${POLKADOT}00`], [42]])("genesis hash %j is no 32-byte hash: refused (400), it cannot be compared", (hash) => {
    expect(refusal(substrate("polkadot-mainnet", hash))).toMatch(/^substrateTransaction\.genesisHash: must be /);
  });
});

// An EIP-7702 authorization's chain id was compared with
// nothing, so an `ethereum-sepolia` delegation (where policies are often lax) carrying chain id 1
// was judged as a test network's while its signature delegated the mainnet account.
describe("an EIP-7702 authorization's chainId against the network", () => {
  const SIGNER = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
  const CONTRACT = "0x52908400098527886E0F7030069857D2E4169EE7";
  const api = (network: string | null, chainId: unknown): Body => ({
    name: TX_NAME,
    type: "TRANSACTION",
    subType: "EVM_ACCOUNT_DELEGATION",
    ...(network === null ? {} : { network: `networks/${network}` }),
    request: { sourceWallet: WALLET },
    transfers: [],
    evmAccountDelegation: { signerAddress: { value: SIGNER }, contractAddress: { value: CONTRACT }, chainId, nonce: "4" },
  });
  const reference = (network: string, chainId: unknown): Body => ({
    name: TX_NAME,
    network: `networks/${network}`,
    details: { evmAccountDelegation: { fromAddress: SIGNER, contractAddress: CONTRACT, chainId } },
  });
  const listed = (network: string, chainId: unknown): Body =>
    body(network, network, SIGNER, CONTRACT, {
      evmTransaction: {
        fromAddress: { value: SIGNER },
        authorizationDetails: {
          authorizationList: [
            { contractAddress: { value: CONTRACT }, chainId: "0" },
            { contractAddress: { value: CONTRACT }, chainId },
          ],
        },
      },
    });
  const NOT = (network: string, id: string) => `is not ${network}'s chain id (${id}), and the transaction's network is ${network}`;

  it.each([
    ["ethereum-sepolia", "1", NOT("ethereum-sepolia", "11155111")],
    ["ethereum-mainnet", "11155111", NOT("ethereum-mainnet", "1")],
    ["ethereum-mainnet", "137", NOT("ethereum-mainnet", "1")],
    ["polygon-amoy", "137", NOT("polygon-amoy", "80002")],
    ["base-mainnet", "1", NOT("base-mainnet", "8453")],
    ["bsc-testnet", "56", NOT("bsc-testnet", "97")],
    // A test network the table does not know: a mainnet's chain id still contradicts it.
    ["ethereum-goerli", "1", "is ethereum-mainnet's chain id, and the transaction's network is a test network"],
    ["polygon-testnet", "137", "is polygon-mainnet's chain id, and the transaction's network is a test network"],
  ])("on %s, chain id %s is refused (400) in every place an authorization is written", (network, chainId, message) => {
    expect(refusal(api(network, chainId))).toBe(`evmAccountDelegation.chainId: ${message}`);
    expect(refusal(reference(network, chainId))).toBe(`details.evmAccountDelegation.chainId: ${message}`);
    expect(refusal(listed(network, chainId))).toBe(`evmTransaction.authorizationDetails.authorizationList[1].chainId: ${message}`);
  });

  it.each([
    ["ethereum-mainnet", "1"],
    ["ethereum-sepolia", "11155111"],
    ["polygon-mainnet", "137"],
    ["arbitrum-sepolia", "421614"],
    // 0 is valid on every chain: the policy's fact to pin, not a contradiction.
    ["ethereum-mainnet", "0"],
    ["ethereum-sepolia", "0"],
    // A network the table does not know, with no test word, is compared with nothing.
    ["ethereum-custom", "1"],
  ])("on %s, chain id %s is accepted", (network, chainId) => {
    accepted(api(network, chainId));
    accepted(reference(network, chainId));
    accepted(listed(network, chainId));
  });

  it("is compared with the network the transfers' assets name when the body names none", () => {
    expect(refusal(listed("ethereum-sepolia", "1"))).toMatch(/ethereum-sepolia's chain id/);
    const unnamed = listed("ethereum-sepolia", "1");
    delete unnamed.network;
    expect(refusal(unnamed)).toBe(`evmTransaction.authorizationDetails.authorizationList[1].chainId: ${NOT("ethereum-sepolia", "11155111")}`);
  });

  it.each([["00"], ["0x0"], ["0x1"], ["01"], [" 1"]])(
    'chain id %j is not written as the API writes an integer: refused (400), a rule naming "0" or "1" would not see it',
    (chainId) => {
      expect(refusal(api("ethereum-mainnet", chainId))).toMatch(/^evmAccountDelegation\.chainId: must be /);
    },
  );
});
