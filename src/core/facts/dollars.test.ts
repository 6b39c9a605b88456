/**
 * The dollar facts (docs/interface.md section 10): exact products and sums, null where a price or
 * an amount is unknown, and `usd` windows summing across assets.
 */
import { describe, expect, it } from "vitest";
import { evaluate } from "../policy/evaluate.js";
import type { PolicyBundle, WindowSpec } from "../policy/types.js";
import { USDC_ETH, WALLET, apiBody, apiTransfer, assetTransferBody, example } from "../transaction/test-bodies.js";
import { buildFacts } from "./build.js";
import { buildTransferFacts } from "./transfer-facts.js";
import { transferGroupKeys } from "./group-keys.js";
import { tx, view } from "./test-views.js";
import type { PriceBook } from "./dollars.js";

const NOW = new Date("2026-11-21T12:00:00Z");
const ETH = "assets/native.ethereum-mainnet";
const prices: PriceBook = new Map([
  [USDC_ETH, "0.99987"],
  [ETH, "3012.4567"],
]);
const dailyUsd: WindowSpec = { name: "daily_usd", duration: "24h", durationSeconds: 86_400, groupBy: ["sourceWallet"], measure: "usd" };

const factsOf = (body: unknown, book: PriceBook = prices, windows: WindowSpec[] = [], totals = new Map()) =>
  buildFacts({ tx: tx(body), now: NOW, addressBook: view(), windows, totals, prices: book });

describe("dollar facts", () => {
  it("transfer.usd is amount × price exactly, with no rounding, and transfer.usdPrice the price used", () => {
    const [f] = factsOf(assetTransferBody({ amount: "1234567.123456" }));
    expect(f!.transfer).toMatchObject({ usdPrice: "0.99987", usd: "1234406.62972995072" });
    expect(f!.tx.usd).toBe("1234406.62972995072");
  });

  it("tx.usd sums the transfers across assets; tx.feeUsd prices the stated fee in the native asset", () => {
    const body = apiBody([apiTransfer({ asset: USDC_ETH, amount: "100" }), apiTransfer({ asset: ETH, amount: "0.5" })]);
    expect(factsOf(body).map((f) => [f.transfer!.usd, f.tx.usd])).toEqual([
      ["99.987", "1606.21535"],
      ["1506.22835", "1606.21535"],
    ]);
    const withFee = {
      ...(example("api-shape-token-transfer-evm") as object),
      evmTransaction: { ...(example("api-shape-token-transfer-evm") as { evmTransaction: object }).evmTransaction, fee: { gasLimit: "1000000", maxFeePerGas: "0x1d1a94a2000" } },
    };
    expect(factsOf(withFee)[0]!.tx).toMatchObject({ fee: { asset: ETH, amount: "2" }, feeUsd: "6024.9134" });
  });

  it("is null where the price is unknown, and tx.usd is null when any transfer's is", () => {
    const body = apiBody([apiTransfer({ asset: USDC_ETH, amount: "100" }), apiTransfer({ asset: ETH, amount: "0.5" })]);
    const facts = factsOf(body, new Map([[USDC_ETH, "1"]]));
    expect(facts.map((f) => [f.transfer!.usdPrice, f.transfer!.usd, f.tx.usd])).toEqual([
      ["1", "100", null],
      [null, null, null],
    ]);
  });

  it("a usd window sums dollars across assets, before and after this transaction's transfers", () => {
    const body = apiBody([apiTransfer({ asset: USDC_ETH, amount: "100" }), apiTransfer({ asset: ETH, amount: "0.5" })], { request: { sourceWallet: WALLET } });
    const t = tx(body);
    const [keys] = transferGroupKeys([dailyUsd], t, buildTransferFacts(t, view(), prices));
    const totals = new Map([["daily_usd", new Map([[keys!.daily_usd!, { amount: "0", count: 2, usd: "43102.5" }]])]]);
    expect(factsOf(body, prices, [dailyUsd], totals).map((f) => f.velocity.daily_usd)).toEqual([
      { usd: "43102.5", count: 2, usdAfter: "43202.487", countAfter: 3 },
      { usd: "43102.5", count: 2, usdAfter: "44708.71535", countAfter: 4 },
    ]);
  });

  it("a rule reading a null dollar fact is an evaluation error: an allow does not match, a deny does", () => {
    const bundle: PolicyBundle = {
      version: "1",
      description: null,
      default: "deny",
      windows: [],
      digest: "0".repeat(64),
      directory: "(memory)",
      rules: [
        { id: "small-in-dollars", decision: "allow", reason: null, when: { "<=": [{ var: "transfer.usd" }, "1000"] } },
        { id: "large-in-dollars", decision: "deny", reason: null, when: { ">": [{ var: "tx.usd" }, "50000"] } },
      ],
    };
    const priced = evaluate(bundle, factsOf(assetTransferBody({ amount: "10" })));
    expect(priced.decision).toBe("allow");
    const unpriced = evaluate(bundle, factsOf(assetTransferBody({ amount: "10" }), new Map()));
    expect(unpriced.decision).toBe("deny");
    expect(unpriced.matched).toEqual([expect.objectContaining({ rule: "large-in-dollars", error: expect.any(String) })]);
  });
});
