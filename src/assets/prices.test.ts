/** The price cache's sharing and ages, with a fetch the test holds (the HTTP side: test/assets/prices-from-platform.test.ts). */
import { describe, expect, it } from "vitest";
import { ok } from "../core/errors.js";
import type { FetchPrices } from "./custody-assets.js";
import { createAssetPrices } from "./prices.js";

const A = "assets/native.ethereum-mainnet";
const B = "assets/native.solana-mainnet";

describe("asset prices", () => {
  it("answers a lookup from what was kept when it began, even if that ages out while it waits for another asset", async () => {
    let now = 0;
    const release: (() => void)[] = [];
    const fetch: FetchPrices = (assets) => new Promise((resolve) => release.push(() => resolve(ok(new Map(assets.map((a) => [a, a === A ? "3000" : "150"]))))));
    const prices = createAssetPrices({ pins: new Map(), fetch, maxAgeMs: 1_000, nowMs: () => now });
    const first = prices.pricesOf([B], "vaults/v1");
    release.shift()!();
    await first; // B kept at 0
    const askingA = prices.pricesOf([A], "vaults/v1");
    const both = prices.pricesOf([A, B], "vaults/v1"); // A in flight, B kept
    now = 2_000; // B ages out while A is awaited
    release.shift()!();
    await askingA;
    const answers = await both;
    expect(answers.get(A)).toMatchObject({ known: true, quote: { usd: "3000" } });
    expect(answers.get(B)).toMatchObject({ known: true, quote: { usd: "150" } });
    expect(release).toHaveLength(0);
  });
});
