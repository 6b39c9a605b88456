/**
 * While a window groups by asset, a transfer of an opaque asset id is denied: nothing in the id says
 * which asset it is, so it would be charged under a group of its own, with the whole limit again.
 */
import { describe, expect, it } from "vitest";
import type { TransferFacts } from "../core/facts/types.js";
import type { WindowSpec } from "../core/policy/types.js";
import { opaqueAssetHold } from "./opaque-asset.js";

const OPAQUE = "assets/e72ff35a5b15";
const window = (groupBy: string[]) => [{ name: "w", durationSeconds: 86_400, groupBy, measure: "amount" }] as unknown as WindowSpec[];
const transfer = (asset: string) => ({ asset, network: "ethereum-mainnet" }) as TransferFacts;

describe("a window grouped by asset", () => {
  it.each([OPAQUE, `${OPAQUE}.x`])("denies the opaque asset id %s, saying why", (asset) => {
    expect(opaqueAssetHold(window(["sourceWallet", "asset"]), [transfer(asset)])).toEqual({ decision: "deny", reason: expect.stringContaining(`asset ${asset} is an opaque id`) });
  });

  it.each(["assets/native.ethereum-mainnet", "assets/spl.solana-mainnet.EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"])(
    "judges the structured asset id %s by the policy",
    (asset) => {
      expect(opaqueAssetHold(window(["sourceWallet", "asset"]), [transfer(asset)])).toBeNull();
    },
  );
});

describe("without a window grouped by asset", () => {
  it("judges an opaque asset id as any asset", () => {
    expect(opaqueAssetHold(window(["sourceWallet"]), [transfer(OPAQUE)])).toBeNull();
  });
});
