/**
 * What the decimals lookup believes of an answer (the HTTP side, with the fake custody API's JWT
 * checks, is test/integration/addressbook/custody-assets.test.ts): only integer decimals of the asset asked about.
 */
import { describe, expect, it } from "vitest";
import type { CustodyGet, RequestTarget } from "../addressbook/custody-http.js";
import { CustodyApiError } from "../addressbook/errors.js";
import { err, ok } from "../core/errors.js";
import { createDecimalsFetcher } from "./custody-assets.js";

const USDC = "assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
const USDC_CHECKSUM = "assets/erc20.ethereum-mainnet.0xA0b86991c6218b36c1d19d4a2e9eB0cE3606eB48";

/** A GET that answers `answer` to every path and records the paths. */
function answering(answer: unknown) {
  const paths: string[] = [];
  const get: CustodyGet = async (target: RequestTarget) => {
    paths.push(target.path);
    return ok(answer);
  };
  return { get, paths };
}

const outcome = async (get: CustodyGet, asset = USDC) => {
  const r = await createDecimalsFetcher(get)(asset, "vaults/v1");
  return r.ok ? r.value : r.error.code;
};

describe("an asset answer from the custody API", () => {
  it("is believed for the asset asked about, whatever the case of its EVM contract (a checksum)", async () => {
    expect(await outcome(answering({ asset: { name: USDC, decimals: 6 } }).get)).toBe(6);
    expect(await outcome(answering({ asset: { name: USDC_CHECKSUM, decimals: 6 } }).get)).toBe(6);
    expect(await outcome(answering({ asset: { name: USDC, decimals: 6 } }).get, USDC_CHECKSUM)).toBe(6);
  });

  it("is not believed when it names another asset", async () => {
    expect(await outcome(answering({ asset: { name: "assets/erc20.ethereum-mainnet.0x1111111111111111111111111111111111111111", decimals: 18 } }).get)).toBe("INCONSISTENT");
    expect(await outcome(answering({ asset: { name: USDC.replace("ethereum-mainnet", "polygon-mainnet"), decimals: 6 } }).get)).toBe("INCONSISTENT");
  });

  it.each([
    ["no asset object", {}],
    ["an asset that is not an object", { asset: 6 }],
    ["no decimals", { asset: { name: USDC } }],
    ["null decimals", { asset: { name: USDC, decimals: null } }],
    ["decimals as a string", { asset: { name: USDC, decimals: "6" } }],
    ["fractional decimals", { asset: { name: USDC, decimals: 6.5 } }],
    ["negative decimals", { asset: { name: USDC, decimals: -1 } }],
    ["decimals beyond a uint8", { asset: { name: USDC, decimals: 256 } }],
    ["a JSON array", [{ asset: { name: USDC, decimals: 6 } }]],
    ["null", null],
  ])("is BAD_RESPONSE with %s", async (_, answer) => {
    expect(await outcome(answering(answer).get)).toBe("BAD_RESPONSE");
  });

  it("asks GetVaultAsset only when GetAsset does not know the asset", async () => {
    const calls: string[] = [];
    const get =
      (first: CustodyApiError["code"]): CustodyGet =>
      async (target) => {
        calls.push(target.operation);
        return target.operation === "GetAsset" ? err(new CustodyApiError(first, "GetAsset", target.vault, "test")) : ok({ asset: { name: USDC, decimals: 6 } });
      };
    expect(await outcome(get("NOT_FOUND"))).toBe(6);
    expect(calls).toEqual(["GetAsset", "GetVaultAsset"]);
    calls.length = 0;
    expect(await outcome(get("UNAVAILABLE"))).toBe("UNAVAILABLE");
    expect(calls).toEqual(["GetAsset"]);
  });
});
