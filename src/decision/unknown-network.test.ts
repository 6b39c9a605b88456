/**
 * While a window groups by network or asset, a transfer whose network is unknown (an opaque asset id
 * in a body stating none) or not written `chain-net` (`assets/native.ethereum`) is denied: it would
 * be charged under a group of its own, with the whole limit again. The transfer is read by the
 * webhook's parser, as the facts read it.
 */
import { describe, expect, it } from "vitest";
import type { TransferFacts } from "../core/facts/types.js";
import type { WindowSpec } from "../core/policy/types.js";
import { parsed } from "../core/transaction/test-bodies.js";
import { unknownNetworkHold } from "./unknown-network.js";

const OPAQUE = "assets/e72ff35a5b15";
const window = (groupBy: string[]) => [{ name: "w", durationSeconds: 3600, groupBy, measure: "count" }] as unknown as WindowSpec[];

/** The transfer of 1 `asset` a body (stating `network`, or none) carries, as the facts hold it. */
function transferOf(asset: string, network: string | null): TransferFacts {
  const tx = parsed({
    name: "vaults/5c3f1a2b9d7e/transactions/0f9e8d7c6b5a",
    ...(network === null ? {} : { network: `networks/${network}` }),
    details: { assetTransfer: { asset, amount: "1", source: "vaults/5c3f1a2b9d7e/wallets/hot", destination: "vaults/5c3f1a2b9d7e/wallets/cold" } },
  });
  const [transfer] = tx.transfers;
  return { asset: transfer!.asset, network: transfer!.network } as TransferFacts;
}

describe.each([["network"], ["asset"]])("a window grouped by %s", (dimension) => {
  it.each([
    [OPAQUE, null, `the network of asset ${OPAQUE} is unknown`],
    ["assets/native.ethereum", null, "network ethereum is not a network id"],
    ["assets/native.Ethereum", null, "network ethereum is not a network id"],
  ])("denies %s in a body stating network %s: %s", (asset, network, reason) => {
    const hold = unknownNetworkHold(window(["sourceWallet", dimension]), [transferOf(asset, network)]);
    expect(hold).toEqual({ decision: "deny", reason: expect.stringContaining(reason) });
    expect(hold?.reason).toContain(`a window groups by ${dimension}`);
  });

  it.each([
    ["assets/native.ethereum-mainnet", null],
    [OPAQUE, "ethereum-mainnet"],
    [OPAQUE, "polygon-mainnet"],
  ])("judges %s in a body stating network %s by the policy", (asset, network) => {
    expect(unknownNetworkHold(window(["sourceWallet", dimension]), [transferOf(asset, network)])).toBeNull();
  });
});

describe("without a window grouped by network or asset", () => {
  it.each([OPAQUE, "assets/native.ethereum"])("judges %s by the policy", (asset) => {
    expect(unknownNetworkHold(window(["sourceWallet"]), [transferOf(asset, null)])).toBeNull();
  });
});
