/**
 * Velocity group keys. A key names the group a transfer is charged to: built from the window's
 * groupBy dimensions only, in one fixed dimension order, and never from the window's name or
 * duration, so two windows with the same groupBy share their charges and renaming a window loses
 * no history. The key is the JSON of [dimension, value] pairs: no crafted value can reproduce
 * another group's key, as a separator-joined string could.
 */
import type { GroupDimension, WindowSpec } from "../policy/types.js";
import { assetIdentity } from "../chains/assets.js";
import type { Transaction } from "../transaction/types.js";
import { baseAccount, normaliseAddress } from "../chains/accounts.js";
import type { EndpointFacts, TransferFacts } from "./types.js";

const DIMENSION_ORDER: readonly GroupDimension[] = ["vault", "sourceWallet", "destination", "asset", "network", "initiator"];

type KeyValue = string | null | readonly [string, string];

/** What a group key reads from the transaction (replay rebuilds it from recorded facts). */
export type GroupingTx = Pick<Transaction, "vault" | "initiator">;

export function groupKey(window: WindowSpec, tx: GroupingTx, transfer: TransferFacts): string {
  const dimensions = DIMENSION_ORDER.filter((d) => window.groupBy.includes(d));
  return JSON.stringify(dimensions.map((d) => [d, dimensionValue(d, tx, transfer)]));
}

/** Per transfer, in order: window name → group key (what the caller charges once approved). */
export function transferGroupKeys(windows: readonly WindowSpec[], tx: Transaction, transfers: readonly TransferFacts[]): Record<string, string>[] {
  // fromEntries defines own properties, so even a window named `__proto__` stays plain data.
  return transfers.map((t) => Object.fromEntries(windows.map((w) => [w.name, groupKey(w, tx, t)])));
}

/** The distinct group keys a transaction touches, sorted: take advisory locks in this order. */
export function groupKeysForTransaction(windows: readonly WindowSpec[], tx: Transaction, transfers: readonly TransferFacts[]): string[] {
  const keys = new Set(transfers.flatMap((t) => windows.map((w) => groupKey(w, tx, t))));
  return [...keys].sort();
}

function dimensionValue(dimension: GroupDimension, tx: GroupingTx, t: TransferFacts): KeyValue {
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

/**
 * The wallet when known (named, or an own wallet's raw address), else the normalised address; a
 * Stellar muxed `M…` address counts as its base account: each of its 2^64 ids would be a new group;
 * so does an XRP X-address, whatever its tag.
 */
function endpointKey(e: EndpointFacts): KeyValue {
  if (e.wallet !== null) return ["wallet", e.wallet];
  return ["address", normaliseAddress(baseAccount(e.address ?? e.value))];
}

/** One asset identity whichever way the body spelt it (src/core/transaction/assets.ts). */
const assetKey = (t: TransferFacts): string => assetIdentity(t.asset, t.assetStandard, t.network);
