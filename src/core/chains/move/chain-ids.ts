/**
 * `aptosTransaction.chainId` decides which chain an Aptos signature moves coins on, while the
 * policy judges `tx.network`: a body labelled `networks/aptos-testnet` (where policies are often
 * lax) with Aptos mainnet's chain id would be judged as testnet while its signature moved mainnet
 * APT. A contradiction, as far as the network's name says, is refused (400).
 */
import { z } from "zod";
import { err, ok, type AppError, type Result } from "../../errors.js";
import { check, invalidAt } from "../../transaction/issues.js";
import { at, isRecord } from "../../transaction/transfer.js";
import { isTestNetwork } from "../networks.js";

/** Aptos's own chain ids (aptos-core `chain_id`; the TypeScript SDK's NetworkToChainId). */
const APTOS_MAINNET = 1n;
const APTOS_TESTNET = 2n;

/** Aptos chain ids are integers (a u8 on chain); the API writes an int64 as a string. */
const chainIdText = z.string({ error: "must be a string" }).regex(/^[0-9]{1,20}$/, "must be a plain non-negative integer string");

export function aptosChainId(tx: Record<string, unknown>, networks: readonly string[], path: string): Result<void, AppError> {
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
  // 126) carries an aptosTransaction with its own id.
  if (network.startsWith("aptos-") && network.includes("mainnet") && chainId !== APTOS_MAINNET)
    return "is not Aptos mainnet's chain id (1), and the transaction's network is Aptos mainnet";
  if (isTestNetwork(network) && chainId === APTOS_MAINNET) return "is Aptos mainnet's chain id (1), and the transaction's network is a test network";
  if (network === "aptos-testnet" && chainId !== APTOS_TESTNET) return "is not Aptos testnet's chain id (2), and the transaction's network is Aptos testnet";
  return null;
}
