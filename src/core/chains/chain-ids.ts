/**
 * The chain a signature is valid on, against the network the policy judges the body by: each
 * family's chain ids and genesis hashes (an Aptos chain id, a Substrate genesis hash, an EIP-7702
 * authorization's chain id) against the transaction's network and the networks its transfers'
 * assets name. A contradiction, as far as the network's name says, is refused (400), as a
 * transfer's asset on another network is; what a name does not say is not guessed. A chain id or
 * hash written any other way than the chain reads it is refused: it cannot be compared.
 */
import { ok, type AppError, type Result } from "../errors.js";
import { FAMILIES } from "./registry.js";

export function chainAgreesWithNetworks(tx: Record<string, unknown>, networks: readonly string[], path: string): Result<void, AppError> {
  const ids = [...new Set(networks.map((n) => n.toLowerCase()))];
  for (const family of FAMILIES) {
    const checked = family.checkChainIds?.(tx, ids, path) ?? ok(undefined);
    if (!checked.ok) return checked;
  }
  return ok(undefined);
}
