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
  return substrateGenesis(tx, ids, path);
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
