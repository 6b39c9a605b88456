/**
 * The chain families countersign knows, and which one a network (or an asset's network) is. A
 * chain countersign does not know has no family: its accounts are compared as written and its
 * chain objects, if any, are payloads by the classification table.
 */
import { aleo } from "./aleo/index.js";
import { assetStandardOf, networkFromAsset } from "./assets.js";
import { bitcoin } from "./bitcoin/index.js";
import { evm } from "./evm/index.js";
import type { ChainFamily, FeeReader, OtherFamilies, SenderField, StatedSmallestUnits } from "./family.js";
import { hedera } from "./hedera/index.js";
import { move } from "./move/index.js";
import { near } from "./near/index.js";
import { networkId } from "./networks.js";
import { solana } from "./solana/index.js";
import { stellar } from "./stellar/index.js";
import { substrate } from "./substrate/index.js";
import { ton } from "./ton/index.js";
import { tron } from "./tron/index.js";
import { xrpl } from "./xrpl/index.js";

/** Every family, in the order their chain objects are read (which decides the first of two refusals). */
export const FAMILIES: readonly ChainFamily[] = [evm, ton, move, substrate, bitcoin, tron, aleo, solana, stellar, hedera, near, xrpl];

/** Every family's fields that name a paying account, and every family's fee readers: read on every delivery, listed once. */
export const SENDER_FIELDS: readonly SenderField[] = FAMILIES.flatMap((f) => f.senders ?? []);
export const FEE_READERS: readonly FeeReader[] = FAMILIES.flatMap((f) => f.fees ?? []);

/** The family of a network id (`ethereum-mainnet`, without `networks/`), or null. */
export function familyOfNetwork(network: string): ChainFamily | null {
  const id = networkId(network).toLowerCase();
  return FAMILIES.find((f) => f.networks.test(id)) ?? null;
}

/**
 * The family whose accounts a transfer of `asset` moves between: the network its asset id names,
 * else the transaction's. A chain named without its net (`assets/native.tron`) is read as that
 * chain's, so no family's spelling check is turned off by leaving the net out (`0x…` would pass as
 * a Tron destination so). An ERC-20 token is the EVM family's whatever its network, and a
 * `substrate` asset the Substrate family's.
 */
export function accountFamily(asset: string, network: string | null): ChainFamily | null {
  const named = networkFromAsset(asset) ?? (network === null ? null : networkId(network).toLowerCase());
  const key = named === null || named.includes("-") ? named : `${named}-`;
  if ((key !== null && evm.networks.test(key)) || assetStandardOf(asset, key) === "erc20") return evm;
  const family = key === null ? undefined : FAMILIES.find((f) => f.readAccount !== undefined && f.networks.test(key));
  if (family !== undefined) return family;
  return asset.toLowerCase().startsWith("assets/substrate.") ? substrate : null;
}

/** The family whose accounts an EIP-7702 authorization (an EVM account delegation) names. */
export const DELEGATION_FAMILY: ChainFamily = evm;

/** The decimals of `network`'s native coin, where its family fixes them. */
export const nativeDecimalsOf = (network: string): number | null => familyOfNetwork(network)?.nativeDecimals ?? null;

/** What a family's reading may ask of the others (family.ts, OtherFamilies). */
export const OTHER_FAMILIES: OtherFamilies = { nativeDecimalsOf };

const SMALLEST_UNIT_READERS = FAMILIES.flatMap((f) => (f.statedSmallestUnits ? [f.statedSmallestUnits] : []));

/** Every smallest-unit amount the families' chain objects in `snapshot` state (src/core/transaction/unit-claims.ts). */
export const statedSmallestUnits = (snapshot: Record<string, unknown>, payloads: readonly string[]): StatedSmallestUnits[] =>
  SMALLEST_UNIT_READERS.flatMap((read) => read(snapshot, payloads));
