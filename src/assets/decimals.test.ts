import { describe, expect, it } from "vitest";
import { CustodyApiError } from "../addressbook/errors.js";
import { err, ok } from "../core/errors.js";
import type { FetchDecimals } from "./custody-assets.js";
import { createAssetDecimals } from "./decimals.js";
import { parseDecimalsPins } from "./decimals-pins.js";

const USDC = "assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";
const VAULT = "vaults/v1";

/** A custody API lookup that counts its calls and answers from `table` (absent: NOT_FOUND, a string: that error code). */
function fakeFetch(table: Record<string, number | "UNAVAILABLE">) {
  const calls: string[] = [];
  const fetch: FetchDecimals = async (asset) => {
    calls.push(asset);
    const answer = table[asset];
    if (typeof answer === "number") return ok(answer);
    return err(new CustodyApiError(answer ?? "NOT_FOUND", "GetAsset", VAULT, "test"));
  };
  return { fetch, calls };
}

describe("asset decimals", () => {
  it("knows nothing without an API or a pin, and a pin without an API", async () => {
    expect(await createAssetDecimals({ pins: new Map() }).decimalsOf(USDC, VAULT)).toEqual({
      known: false,
      reason: expect.stringMatching(/no custody API and no COUNTERSIGN_ASSET_DECIMALS pin/),
    });
    expect(await createAssetDecimals({ pins: new Map([[USDC, 6]]) }).decimalsOf(USDC, VAULT)).toEqual({ known: true, decimals: 6 });
  });

  it("takes the API's answer, keeps it, and shares one call between concurrent questions", async () => {
    const api = fakeFetch({ [USDC]: 6 });
    const decimals = createAssetDecimals({ pins: new Map(), fetch: api.fetch });
    const answers = await Promise.all([decimals.decimalsOf(USDC, VAULT), decimals.decimalsOf(USDC, VAULT)]);
    expect(answers).toEqual([
      { known: true, decimals: 6 },
      { known: true, decimals: 6 },
    ]);
    await decimals.decimalsOf(USDC, VAULT);
    expect(api.calls).toEqual([USDC]);
  });

  it("is in doubt when the API and a pin disagree, and falls back to the pin when the API cannot answer", async () => {
    const disagree = createAssetDecimals({ pins: new Map([[USDC, 18]]), fetch: fakeFetch({ [USDC]: 6 }).fetch });
    expect(await disagree.decimalsOf(USDC, VAULT)).toEqual({ known: false, reason: expect.stringMatching(/custody API says 6, COUNTERSIGN_ASSET_DECIMALS says 18/) });
    const down = createAssetDecimals({ pins: new Map([[USDC, 6]]), fetch: fakeFetch({ [USDC]: "UNAVAILABLE" }).fetch });
    expect(await down.decimalsOf(USDC, VAULT)).toEqual({ known: true, decimals: 6 });
  });

  it("remembers a failure only for its short time, then asks again", async () => {
    let now = 0;
    const table: Record<string, number | "UNAVAILABLE"> = { [USDC]: "UNAVAILABLE" };
    const api = fakeFetch(table);
    const decimals = createAssetDecimals({ pins: new Map(), fetch: api.fetch, nowMs: () => now, failureTtlMs: 1_000 });
    expect(await decimals.decimalsOf(USDC, VAULT)).toEqual({ known: false, reason: expect.stringMatching(/custody API: unavailable/) });
    now = 999;
    await decimals.decimalsOf(USDC, VAULT);
    expect(api.calls).toHaveLength(1);
    table[USDC] = 6;
    now = 1_000;
    expect(await decimals.decimalsOf(USDC, VAULT)).toEqual({ known: true, decimals: 6 });
    expect(api.calls).toHaveLength(2);
  });

  it("keeps at most maxCached answers", async () => {
    const api = fakeFetch({ "assets/a": 1, "assets/b": 2 });
    const decimals = createAssetDecimals({ pins: new Map(), fetch: api.fetch, maxCached: 1 });
    await decimals.decimalsOf("assets/a", VAULT);
    await decimals.decimalsOf("assets/b", VAULT);
    await decimals.decimalsOf("assets/a", VAULT);
    expect(api.calls).toEqual(["assets/a", "assets/b", "assets/a"]);
  });
});

describe("COUNTERSIGN_ASSET_DECIMALS", () => {
  it("reads an object of asset name to decimals", () => {
    expect(parseDecimalsPins(JSON.stringify({ [USDC]: 6, "assets/native.x": 0 }))).toEqual({
      pins: new Map([
        [USDC, 6],
        ["assets/native.x", 0],
      ]),
      problems: [],
    });
    expect(parseDecimalsPins(undefined).pins.size).toBe(0);
  });

  it("matches an EVM contract whatever its case, and refuses two spellings pinned differently", async () => {
    const checksummed = USDC.replace("0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48", "0xA0b86991c6218b36c1d19d4a2e9eB0cE3606eB48");
    const { pins, problems } = parseDecimalsPins(JSON.stringify({ [checksummed]: 6 }));
    expect(problems).toEqual([]);
    const decimals = createAssetDecimals({ pins });
    expect(await decimals.decimalsOf(USDC, VAULT)).toEqual({ known: true, decimals: 6 });
    expect(await decimals.decimalsOf(checksummed, VAULT)).toEqual({ known: true, decimals: 6 });
    expect(parseDecimalsPins(JSON.stringify({ [checksummed]: 6, [USDC]: 6 })).problems).toEqual([]);
    expect(parseDecimalsPins(JSON.stringify({ [checksummed]: 6, [USDC]: 18 })).problems).toEqual([expect.stringMatching(/is pinned twice, to 6 and 18/)]);
    // Only the EVM contract part is case-blind: other ids (base58 mints, opaque ids) are exact.
    const mint = "assets/spl.solana-mainnet.EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
    expect(await createAssetDecimals({ pins: parseDecimalsPins(JSON.stringify({ [mint]: 6 })).pins }).decimalsOf(mint.toLowerCase(), VAULT)).toMatchObject({ known: false });
  });

  it.each([
    ["not json", /is not JSON/],
    ["[6]", /must be a JSON object/],
    ['{"usdc": 6}', /"usdc" is not an asset resource name/],
    [`{"${USDC}": 6.5}`, /decimals must be an integer from 0 to 255/],
    [`{"${USDC}": -1}`, /decimals must be an integer from 0 to 255/],
    [`{"${USDC}": "6"}`, /decimals must be an integer from 0 to 255/],
    [`{"${USDC}": 256}`, /decimals must be an integer from 0 to 255/],
  ])("refuses %s", (text, problem) => {
    expect(parseDecimalsPins(text).problems).toEqual([expect.stringMatching(problem)]);
  });
});
