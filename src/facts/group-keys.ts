/**
 * Velocity group keys. A key names the group a transfer is charged to: built from the window's
 * groupBy dimensions only, in one fixed dimension order, and never from the window's name or
 * duration, so two windows with the same groupBy share their charges and renaming a window loses
 * no history. The key is the JSON of [dimension, value] pairs: no crafted value can reproduce
 * another group's key, as a separator-joined string could.
 */
import type { GroupDimension, WindowSpec } from "../policy/types.js";
import type { Transaction } from "../transaction/types.js";
import { normaliseAddress } from "./addresses.js";
import type { EndpointFacts, TransferFacts } from "./types.js";

const DIMENSION_ORDER: readonly GroupDimension[] = [
  "vault",
  "sourceWallet",
  "destination",
  "asset",
  "network",
  "initiator",
];

type KeyValue = string | null | readonly [string, string];

export function groupKey(window: WindowSpec, tx: Transaction, transfer: TransferFacts): string {
  const dimensions = DIMENSION_ORDER.filter((d) => window.groupBy.includes(d));
  return JSON.stringify(dimensions.map((d) => [d, dimensionValue(d, tx, transfer)]));
}

/** Per transfer, in order: window name → group key (what the caller charges once approved). */
export function transferGroupKeys(
  windows: readonly WindowSpec[],
  tx: Transaction,
  transfers: readonly TransferFacts[],
): Record<string, string>[] {
  // fromEntries defines own properties, so even a window named `__proto__` stays plain data.
  return transfers.map((t) => Object.fromEntries(windows.map((w) => [w.name, groupKey(w, tx, t)])));
}

/** The distinct group keys a transaction touches, sorted: take advisory locks in this order. */
export function groupKeysForTransaction(
  windows: readonly WindowSpec[],
  tx: Transaction,
  transfers: readonly TransferFacts[],
): string[] {
  const keys = new Set(transfers.flatMap((t) => windows.map((w) => groupKey(w, tx, t))));
  return [...keys].sort();
}

function dimensionValue(dimension: GroupDimension, tx: Transaction, t: TransferFacts): KeyValue {
  switch (dimension) {
    case "vault":
      return tx.vault;
    case "sourceWallet":
      return endpointKey(t.source);
    case "destination":
      return endpointKey(t.destination);
    case "asset":
      return assetKey(t);
    case "network":
      return t.network;
    case "initiator":
      return tx.initiator;
  }
}

/** The wallet when known (named, or an own wallet's raw address), else the normalised address. */
function endpointKey(e: EndpointFacts): KeyValue {
  if (e.wallet !== null) return ["wallet", e.wallet];
  return ["address", normaliseAddress(e.address ?? e.value)];
}

const EVM_CONTRACT_SUFFIX = /\.0x[0-9a-fA-F]{40}$/;

/**
 * The asset id, with an EVM contract part lower-cased (its case is only a checksum). A bare
 * Stellar asset from a Stellar operation is qualified with its network the way the API names it
 * (`assets/asset.stellar-mainnet.CODE-ISSUER`): a testnet asset is not the mainnet one, and the
 * same asset groups together whichever body shape it arrives in.
 */
function assetKey(t: TransferFacts): string {
  if (t.asset.startsWith("assets/")) {
    return t.asset.replace(EVM_CONTRACT_SUFFIX, (contract) => contract.toLowerCase());
  }
  const stellar = t.assetStandard === "stellarClassic" || t.assetStandard === "sep41";
  if (!stellar || t.network === null) return t.asset;
  return t.asset === "native" ? `assets/native.${t.network}` : `assets/asset.${t.network}.${t.asset}`;
}
