/**
 * The chain a signature is valid on, against the network the policy judges the body by.
 * `aptosTransaction.chainId` and `substrateTransaction.genesisHash` decide which chain an Aptos or
 * Substrate signature moves coins on; the policy sees `tx.network` and the transfers' assets. Found
 * by a review: nothing compared them, so a body labelled `networks/aptos-testnet` (where policies
 * are often lax) with Aptos mainnet's chain id was judged as testnet and its signature moved
 * mainnet APT; likewise a test network's body with Polkadot's (or Polkadot Asset Hub's) genesis hash.
 *
 * A contradiction, as far as the network's name says, is refused (400), as a transfer's asset on
 * another network is (parse.ts). Network names are the platform's (`aptos-testnet`); what a name
 * does not say is not guessed: a name with no net word and no known chain, or a genesis hash of
 * no chain known here (a parachain's), is compared with nothing. A chain id or hash
 * written any other way than the chain reads it is refused: it cannot be compared.
 */
import { z } from "zod";
import { err, ok, type AppError, type Result } from "../errors.js";
import { EVM_NETWORK } from "./assets.js";
import { check, invalidAt } from "./issues.js";
import { at, isRecord } from "./transfer.js";

/** Aptos's own chain ids (aptos-core `chain_id`; the TypeScript SDK's NetworkToChainId). */
const APTOS_MAINNET = 1n;
const APTOS_TESTNET = 2n;

/**
 * Genesis hashes of the relay chains and their Asset Hubs, where balances live since the Asset Hub
 * migrations, so a platform's Polkadot transfer may be signed for either (polkadot-js/common
 * packages/networks/src/defaults/genesis.ts: polkadot, kusama, westend, statemint, statemine;
 * Westend Asset Hub, a testnet parachain that list leaves out, from PolkaGate's constants). `family`
 * is the relay chain's name, as a network id names it. Kusama's earlier genesis hashes (CC1, CC2)
 * name chains no longer running: not listed.
 */
const SUBSTRATE_CHAINS: readonly { family: string; label: string; genesis: string; test: boolean }[] = [
  { family: "polkadot", label: "Polkadot", genesis: "91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3", test: false },
  { family: "polkadot", label: "Polkadot Asset Hub", genesis: "68d56f15f85d3136970ec16946040bc1752654e906147f7e43e9d539d7c3de2f", test: false },
  { family: "kusama", label: "Kusama", genesis: "b0a8d493285c2df73290dfb7e61f870f17b41801197a149ca93654499ea3dafe", test: false },
  { family: "kusama", label: "Kusama Asset Hub", genesis: "48239ef607d7928874027a43a67689209727dfb3d3dc5e5b03a39bdc2eda771a", test: false },
  { family: "westend", label: "Westend", genesis: "e143f23803ac50e8f6f8e62695d1ce9e4e1d68aa36c1cd2cfd15340213f3423e", test: true },
  { family: "westend", label: "Westend Asset Hub", genesis: "67f9723393ef76214df0118c34bbbd3dbebc8ed46a10973a8c969d48fe7598c9", test: true },
];

/**
 * EIP-155 chain ids of the EVM family's networks (assets.ts EVM_NETWORK) under the names the
 * platform gives them (`ethereum-mainnet`, and a test network by its own name or `-testnet`),
 * from ethereum-lists/chains (`_data/chains/eip155-{id}.json`). A network not listed here is
 * compared with nothing but the mainnets' ids on a test network's name.
 */
const EVM_CHAIN_IDS: ReadonlyMap<string, bigint> = new Map([
  ["ethereum-mainnet", 1n],
  ["ethereum-sepolia", 11155111n],
  ["ethereum-holesky", 17000n],
  ["ethereum-hoodi", 560048n],
  ["polygon-mainnet", 137n],
  ["polygon-amoy", 80002n],
  ["base-mainnet", 8453n],
  ["base-sepolia", 84532n],
  ["arbitrum-mainnet", 42161n],
  ["arbitrum-one", 42161n],
  ["arbitrum-sepolia", 421614n],
  ["optimism-mainnet", 10n],
  ["optimism-sepolia", 11155420n],
  ["avalanche-mainnet", 43114n],
  ["avalanche-fuji", 43113n],
  ["bsc-mainnet", 56n],
  ["bsc-testnet", 97n],
  ["linea-mainnet", 59144n],
  ["linea-sepolia", 59141n],
  ["scroll-mainnet", 534352n],
  ["scroll-sepolia", 534351n],
]);
const EVM_MAINNET_IDS: ReadonlyMap<bigint, string> = new Map(
  [...EVM_CHAIN_IDS].filter(([network]) => network.endsWith("-mainnet")).map(([network, id]) => [id, network]),
);
/** Test networks of the EVM family named by their own name rather than a net word. */
const EVM_TEST_WORDS = ["sepolia", "holesky", "hoodi", "goerli", "amoy", "mumbai", "fuji"];
/**
 * An EIP-7702 authorization's chain id as the API writes an integer: decimal, without leading
 * zeros. It is a text fact that a rule compares (`"0"`: valid on every chain), so `00` or `0x0`,
 * which a client reads as 0, would pass a deny rule naming `"0"`.
 */
const evmChainIdText = z.string({ error: "must be a string" }).regex(/^(0|[1-9][0-9]{0,77})$/, "must be a plain non-negative integer string without leading zeros");

/** Words that make a network id a test network's: the net words, and Polkadot's test relays. */
const TEST_WORDS = ["testnet", "devnet", "localnet", "westend", "rococo", "paseo"];

/** Aptos chain ids are integers (a u8 on chain); the API writes an int64 as a string. */
const chainIdText = z.string({ error: "must be a string" }).regex(/^[0-9]{1,20}$/, "must be a plain non-negative integer string");
/** 32 bytes in hex, `0x` optional, in either case. */
const genesisHashText = z.string({ error: "must be a string" }).regex(/^(0x)?[0-9a-fA-F]{64}$/, "must be a genesis hash: 32 bytes in hex");

/**
 * Refuses an Aptos chain id or a Substrate genesis hash that contradicts any of `networks`: the
 * transaction's network and the networks its transfers' assets name (ids without `networks/`).
 */
export function chainAgreesWithNetworks(tx: Record<string, unknown>, networks: readonly string[], path: string): Result<void, AppError> {
  const ids = [...new Set(networks.map((n) => n.toLowerCase()))];
  const aptos = aptosChainId(tx, ids, path);
  if (!aptos.ok) return aptos;
  const evm = evmChainIds(tx, ids, path);
  if (!evm.ok) return evm;
  return substrateGenesis(tx, ids, path);
}

/**
 * The chain ids of the body's EIP-7702 authorizations (an `evmAccountDelegation`'s, in either
 * shape, and an `evmTransaction`'s authorization list): the chain on which the signer's account
 * hands itself to the contract. Found by a review of hostile bodies: nothing compared them, so an
 * `ethereum-sepolia` delegation (where policies are often lax) with chain id 1 was judged as a
 * test network's while its signature delegated the mainnet account. 0, valid on every chain, is
 * no contradiction: it is the policy's fact to pin (README).
 */
function evmChainIds(tx: Record<string, unknown>, networks: readonly string[], path: string): Result<void, AppError> {
  for (const { holder, fieldPath } of authorizationHolders(tx, path)) {
    if (holder.chainId == null) continue;
    const parsed = check(evmChainIdText, holder.chainId, fieldPath);
    if (!parsed.ok) return parsed;
    const chainId = BigInt(parsed.value);
    if (chainId === 0n) continue;
    for (const network of networks) {
      const contradiction = evmContradiction(chainId, network);
      if (contradiction !== null) return err(invalidAt(fieldPath, contradiction));
    }
  }
  return ok(undefined);
}

function authorizationHolders(tx: Record<string, unknown>, path: string): { holder: Record<string, unknown>; fieldPath: string }[] {
  const found: { holder: Record<string, unknown>; fieldPath: string }[] = [];
  if (isRecord(tx.evmAccountDelegation)) found.push({ holder: tx.evmAccountDelegation, fieldPath: at(at(path, "evmAccountDelegation"), "chainId") });
  if (isRecord(tx.details) && isRecord(tx.details.evmAccountDelegation)) {
    found.push({ holder: tx.details.evmAccountDelegation, fieldPath: at(at(at(path, "details"), "evmAccountDelegation"), "chainId") });
  }
  const details = isRecord(tx.evmTransaction) ? tx.evmTransaction.authorizationDetails : undefined;
  const list = isRecord(details) && Array.isArray(details.authorizationList) ? details.authorizationList : [];
  const listPath = at(at(at(path, "evmTransaction"), "authorizationDetails"), "authorizationList");
  for (const [i, item] of list.entries()) {
    if (isRecord(item)) found.push({ holder: item, fieldPath: at(`${listPath}[${i}]`, "chainId") });
  }
  return found;
}

function evmContradiction(chainId: bigint, network: string): string | null {
  const expected = EVM_CHAIN_IDS.get(network);
  if (expected !== undefined && chainId !== expected) return `is not ${network}'s chain id (${expected}), and the transaction's network is ${network}`;
  const mainnet = EVM_MAINNET_IDS.get(chainId);
  const evmTest = EVM_NETWORK.test(network) && (isTestNetwork(network) || EVM_TEST_WORDS.some((word) => network.includes(word)));
  if (mainnet !== undefined && evmTest) return `is ${mainnet}'s chain id, and the transaction's network is a test network`;
  return null;
}

function aptosChainId(tx: Record<string, unknown>, networks: readonly string[], path: string): Result<void, AppError> {
  const holder = tx.aptosTransaction;
  if (!isRecord(holder) || holder.chainId == null) return ok(undefined);
  const fieldPath = at(at(path, "aptosTransaction"), "chainId");
  const parsed = check(chainIdText, holder.chainId, fieldPath);
  if (!parsed.ok) return parsed;
  const chainId = BigInt(parsed.value);
  for (const network of networks) {
    const contradiction = aptosContradiction(chainId, network);
    if (contradiction !== null) return err(invalidAt(fieldPath, contradiction));
  }
  return ok(undefined);
}

function aptosContradiction(chainId: bigint, network: string): string | null {
  // Only Aptos's own mainnet must be 1: another chain of the Aptos family (Movement's mainnet is
  // 126) carries an aptosTransaction with its own id (found by a review of this stop's changes).
  if (network.startsWith("aptos-") && network.includes("mainnet") && chainId !== APTOS_MAINNET) return "is not Aptos mainnet's chain id (1), and the transaction's network is Aptos mainnet";
  if (isTestNetwork(network) && chainId === APTOS_MAINNET) return "is Aptos mainnet's chain id (1), and the transaction's network is a test network";
  if (network === "aptos-testnet" && chainId !== APTOS_TESTNET) return "is not Aptos testnet's chain id (2), and the transaction's network is Aptos testnet";
  return null;
}

function substrateGenesis(tx: Record<string, unknown>, networks: readonly string[], path: string): Result<void, AppError> {
  const holder = tx.substrateTransaction;
  if (!isRecord(holder) || holder.genesisHash == null) return ok(undefined);
  const fieldPath = at(at(path, "substrateTransaction"), "genesisHash");
  const parsed = check(genesisHashText, holder.genesisHash, fieldPath);
  if (!parsed.ok) return parsed;
  const hash = parsed.value.replace(/^0x/, "").toLowerCase();
  const chain = SUBSTRATE_CHAINS.find((c) => c.genesis === hash);
  if (chain === undefined) return ok(undefined);
  for (const network of networks) {
    if (SUBSTRATE_CHAINS.some((other) => other.family !== chain.family && network.includes(other.family))) {
      return err(invalidAt(fieldPath, `is ${chain.label}'s genesis hash, and the transaction's network names another chain`));
    }
    if (!chain.test && isTestNetwork(network)) return err(invalidAt(fieldPath, `is ${chain.label}'s genesis hash, and the transaction's network is a test network`));
    if (chain.test && network.includes("mainnet")) return err(invalidAt(fieldPath, `is ${chain.label}'s genesis hash, a test network's, and the transaction's network is a mainnet`));
  }
  return ok(undefined);
}

const isTestNetwork = (network: string): boolean => TEST_WORDS.some((word) => network.includes(word));
