/**
 * A window grouped by `asset` charges a transfer to its asset's identity (src/core/transaction/assets.ts
 * `assetIdentity`). The custody API also accepts an opaque asset id (`assets/e72ff35a5b15`) for an
 * asset it names elsewhere as `assets/native.ethereum-mainnet`: nothing in the id says which asset
 * it is, so it would be charged under a group of its own, with the whole limit again. While a window
 * groups by asset, such a transfer is denied (no later delivery would say more; the initiator can
 * name the asset by its structured name). Windows grouped without `asset` are unaffected.
 */
import type { TransferFacts } from "../core/facts/types.js";
import type { WindowSpec } from "../core/policy/types.js";
import { isOpaqueAssetId } from "../core/chains/assets.js";
import type { UnknownSource } from "./unknown-source.js";

export function opaqueAssetHold(windows: readonly WindowSpec[], transfers: readonly TransferFacts[]): UnknownSource | null {
  if (!windows.some((w) => w.groupBy.includes("asset"))) return null;
  const opaque = transfers.find((t) => isOpaqueAssetId(t.asset));
  if (!opaque) return null;
  return {
    decision: "deny",
    reason: `asset ${opaque.asset} is an opaque id, which could be another spelling of an asset a window already counts: a window groups by asset; name it as assets/{standard}.{network}[.{contract}]`,
  };
}
