/**
 * A window grouped by `network` charges a transfer to its network, and one grouped by `asset` to its
 * asset's identity, which holds the network (src/core/transaction/assets.ts `assetIdentity`). A transfer
 * whose network is unknown — an opaque asset id (`assets/e72ff35a5b15`, which the custody API
 * accepts for `assets/native.ethereum-mainnet`) in a body that states no `network` — or whose
 * network is not written as the API writes network ids, `chain-net` (`assets/native.ethereum`,
 * which countersign's own spelling checks already read as Ethereum's), would be charged under a
 * group of its own, with the whole limit again (a count of 3
 * a wallet may send per network an hour let 6 through). While such a window is in force, the
 * transfer is denied: no later delivery would say more, and the initiator can name the network.
 * Windows grouped by neither are unaffected.
 */
import type { TransferFacts } from "../core/facts/types.js";
import type { WindowSpec } from "../core/policy/types.js";
import { isChainNetwork } from "../core/chains/assets.js";
import type { UnknownSource } from "./unknown-source.js";

export function unknownNetworkHold(windows: readonly WindowSpec[], transfers: readonly TransferFacts[]): UnknownSource | null {
  const dimension = windows.flatMap((w) => w.groupBy).find((d) => d === "network" || d === "asset");
  if (dimension === undefined) return null;
  const vague = transfers.find((t) => t.network === null || !isChainNetwork(t.network));
  if (!vague) return null;
  const which = vague.network === null ? `the network of asset ${vague.asset} is unknown (the transaction states none)` : `network ${vague.network} is not a network id`;
  return {
    decision: "deny",
    reason: `${which}, which could be another spelling of a network a window already counts: a window groups by ${dimension}; name the network as {chain}-{net} (ethereum-mainnet), in the asset id or the transaction's network`,
  };
}
