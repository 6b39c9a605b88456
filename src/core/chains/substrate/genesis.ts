/**
 * `substrateTransaction.genesisHash` decides which chain a Substrate signature moves coins on,
 * while the policy judges `tx.network`: a test network's body with Polkadot's (or Polkadot Asset
 * Hub's) genesis hash would be judged as a test network's. A contradiction, as far as the network's
 * name says, is refused (400); a genesis hash of no chain known here (a parachain's) is compared
 * with nothing.
 */
import { z } from "zod";
import { err, ok, type AppError, type Result } from "../../errors.js";
import { check, invalidAt } from "../../transaction/issues.js";
import { at, isRecord } from "../../transaction/transfer.js";
import { isTestNetwork } from "../networks.js";

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

/** 32 bytes in hex, `0x` optional, in either case. */
const genesisHashText = z.string({ error: "must be a string" }).regex(/^(0x)?[0-9a-fA-F]{64}$/, "must be a genesis hash: 32 bytes in hex");

export function substrateGenesis(tx: Record<string, unknown>, networks: readonly string[], path: string): Result<void, AppError> {
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
    if (chain.test && network.includes("mainnet"))
      return err(invalidAt(fieldPath, `is ${chain.label}'s genesis hash, a test network's, and the transaction's network is a mainnet`));
  }
  return ok(undefined);
}
