/**
 * The chain ids of the body's EIP-7702 authorizations (an `evmAccountDelegation`'s, in either
 * shape, and an `evmTransaction`'s authorization list): the chain on which the signer's account
 * hands itself to the contract. An `ethereum-sepolia` delegation (where policies are often lax)
 * with chain id 1 would be judged as a test network's while its signature delegated the mainnet
 * account. 0, valid on every chain, is no contradiction: it is the policy's fact to pin (README).
 */
import { z } from "zod";
import { err, ok, type AppError, type Result } from "../../errors.js";
import { check, invalidAt } from "../../transaction/issues.js";
import { at, isRecord } from "../../transaction/transfer.js";
import { isTestNetwork } from "../networks.js";
import { EVM_NETWORK } from "./networks.js";

/**
 * EIP-155 chain ids of the EVM family's networks under the names the platform gives them
 * (`ethereum-mainnet`, and a test network by its own name or `-testnet`), from
 * ethereum-lists/chains (`_data/chains/eip155-{id}.json`). A network not listed here is compared
 * with nothing but the mainnets' ids on a test network's name.
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
const EVM_MAINNET_IDS: ReadonlyMap<bigint, string> = new Map([...EVM_CHAIN_IDS].filter(([network]) => network.endsWith("-mainnet")).map(([network, id]) => [id, network]));
/** Test networks of the EVM family named by their own name rather than a net word. */
const EVM_TEST_WORDS = ["sepolia", "holesky", "hoodi", "goerli", "amoy", "mumbai", "fuji"];
/**
 * An EIP-7702 authorization's chain id as the API writes an integer: decimal, without leading
 * zeros. It is a text fact that a rule compares (`"0"`: valid on every chain), so `00` or `0x0`,
 * which a client reads as 0, would pass a deny rule naming `"0"`.
 */
const evmChainIdText = z.string({ error: "must be a string" }).regex(/^(0|[1-9][0-9]{0,77})$/, "must be a plain non-negative integer string without leading zeros");

export function evmChainIds(tx: Record<string, unknown>, networks: readonly string[], path: string): Result<void, AppError> {
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
