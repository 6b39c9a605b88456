import { describe, expect, it } from "vitest";
import type { GroupDimension, WindowSpec } from "../policy/types.js";
import { SEP41_TOKEN, VAULT, WALLET, assetTransferBody, example, stellarBody, stellarPayment } from "../transaction/test-bodies.js";
import { buildFacts } from "./build.js";
import { buildTransferFacts } from "./transfer-facts.js";
import { transferGroupKeys } from "./group-keys.js";
import { tx, view } from "./test-views.js";
import type { WindowFacts, WindowTotal, WindowTotals } from "./types.js";

const NOW = new Date("2026-11-21T12:00:00Z");
const amountWindow = (name: string, groupBy: GroupDimension[] = ["sourceWallet", "asset"], durationSeconds = 86_400): WindowSpec => ({
  name,
  duration: `${durationSeconds}s`,
  durationSeconds,
  groupBy,
  measure: "amount",
});
const countWindow = (name: string, groupBy: GroupDimension[] = ["sourceWallet"]): WindowSpec => ({ ...amountWindow(name, groupBy, 3600), measure: "count" });

/** Totals for the group of the first transfer of `body`, per window. */
function totalsFor(body: unknown, windows: WindowSpec[], perWindow: Record<string, WindowTotal>): WindowTotals {
  const t = tx(body);
  const [keys] = transferGroupKeys(windows, t, buildTransferFacts(t, view()));
  return new Map(Object.entries(perWindow).map(([name, total]) => [name, new Map([[keys?.[name] ?? "", total]])]));
}

function velocity(body: unknown, windows: WindowSpec[], totals: WindowTotals = new Map()): Record<string, WindowFacts>[] {
  return buildFacts({ tx: tx(body), now: NOW, addressBook: view(), windows, totals }).map((f) => f.velocity);
}

describe("velocity: before and after this transaction", () => {
  it("a Stellar transaction with two payments from one wallet sees both", () => {
    const body = stellarBody([stellarPayment("12345678", "GDESTA"), stellarPayment("20000000", "GDESTB")]);
    const windows = [amountWindow("daily"), countWindow("hourly")];
    const totals = totalsFor(body, windows, { daily: { amount: "100", count: 4 }, hourly: { amount: "7", count: 2 } });
    expect(velocity(body, windows, totals)).toEqual([
      { daily: { amount: "100", count: 4, amountAfter: "101.2345678", countAfter: 5 }, hourly: { count: 2, countAfter: 3 } },
      { daily: { amount: "100", count: 4, amountAfter: "103.2345678", countAfter: 6 }, hourly: { count: 2, countAfter: 4 } },
    ]);
  });

  const decimals: { before: string; amounts: string[]; after: string[] }[] = [
    { before: "0", amounts: ["0.000000000000000001", "0.000000000000000002"], after: ["0.000000000000000001", "0.000000000000000003"] },
    { before: "0.1", amounts: ["0.2"], after: ["0.3"] },
    { before: "999999999999999999.999999999999999999", amounts: ["0.000000000000000001"], after: ["1000000000000000000"] },
    { before: "12.500000000000000000", amounts: ["1.000000000000000001", "2"], after: ["13.500000000000000001", "15.500000000000000001"] },
    {
      before: "115792089237316195423570985008687907853269984665640564039457.584007913129639935",
      amounts: ["1"],
      after: ["115792089237316195423570985008687907853269984665640564039458.584007913129639935"],
    },
  ];
  it.each(decimals)("exact decimals: $before + $amounts", ({ before, amounts, after }) => {
    const body = {
      name: `${VAULT}/transactions/b1`,
      details: {
        assetBatchTransfer: {
          asset: "assets/native.ethereum-mainnet",
          source: WALLET,
          destinations: amounts.map((amount, i) => ({ destination: `0x${String(i).padStart(40, "0")}`, amount })),
        },
      },
    };
    const windows = [amountWindow("daily")];
    const result = velocity(body, windows, totalsFor(body, windows, { daily: { amount: before, count: 0 } }));
    expect(result.map((v) => v.daily?.amountAfter)).toEqual(after);
  });

  it("totals of other groups, and other windows' totals, are not this group's", () => {
    const body = assetTransferBody({ amount: "5" });
    const daily = amountWindow("daily");
    const weekly = amountWindow("weekly", ["sourceWallet", "asset"], 604_800);
    const totals = totalsFor(body, [daily, weekly], { weekly: { amount: "70", count: 9 } });
    const withOtherGroup = new Map([...totals, ["daily", new Map([['[["asset","x"]]', { amount: "1000", count: 50 }]])]]);
    expect(velocity(body, [daily, weekly], withOtherGroup)).toEqual([
      { daily: { amount: "0", count: 0, amountAfter: "5", countAfter: 1 }, weekly: { amount: "70", count: 9, amountAfter: "75", countAfter: 10 } },
    ]);
  });

  it("transfers in different groups accumulate separately", () => {
    const body = {
      name: `${VAULT}/transactions/b2`,
      details: {
        assetBatchTransfer: {
          asset: "assets/native.ethereum-mainnet",
          source: WALLET,
          destinations: [
            { destination: `0x${"a".repeat(40)}`, amount: "1" },
            { destination: `0x${"b".repeat(40)}`, amount: "2" },
            { destination: `0x${"a".repeat(40)}`, amount: "4" },
          ],
        },
      },
    };
    const perDestination = amountWindow("per_dest", ["destination", "asset"]);
    expect(velocity(body, [perDestination]).map((v) => [v.per_dest?.amountAfter, v.per_dest?.countAfter])).toEqual([
      ["1", 1],
      ["2", 1],
      ["5", 2],
    ]);
  });

  it("a SEP-41 payment (amount null) counts, but its amount windows have amountAfter null", () => {
    const sep41 = { sep41Payment: { destinationAddress: "GDEST", contractAddress: SEP41_TOKEN, rawAmount: "5000000" } };
    const body = stellarBody([sep41, sep41]);
    const windows = [amountWindow("daily"), countWindow("hourly")];
    const totals = totalsFor(body, windows, { daily: { amount: "3", count: 1 }, hourly: { amount: "0", count: 1 } });
    expect(velocity(body, windows, totals)).toEqual([
      { daily: { amount: "3", count: 1, amountAfter: null, countAfter: 2 }, hourly: { count: 1, countAfter: 2 } },
      { daily: { amount: "3", count: 1, amountAfter: null, countAfter: 3 }, hourly: { count: 1, countAfter: 3 } },
    ]);
  });

  it("a payment after an unknown amount in the same group has an unknown sum too", () => {
    const body = stellarBody([stellarPayment("10000000"), { sep41Payment: { destinationAddress: "G", contractAddress: SEP41_TOKEN, rawAmount: "1" } }, stellarPayment("10000000")]);
    // Grouped by wallet only (a policy that sums assets would be refused at load; here it shows the poisoning).
    const bySource = amountWindow("by_source", ["sourceWallet"]);
    expect(velocity(body, [bySource]).map((v) => v.by_source?.amountAfter)).toEqual(["1", null, null]);
  });

  it("the example two-payment transaction: USDC and the SEP-41 token are separate groups", () => {
    const [first, second] = velocity(example("stellar-two-payments"), [amountWindow("daily")]);
    expect(first?.daily).toEqual({ amount: "0", count: 0, amountAfter: "1.2345678", countAfter: 1 });
    expect(second?.daily).toEqual({ amount: "0", count: 0, amountAfter: null, countAfter: 1 });
  });

  it("no windows, no velocity facts", () => {
    expect(velocity(assetTransferBody(), [])).toEqual([{}]);
  });

  const corrupt: WindowTotal[] = [
    { amount: "-1", count: 0 },
    { amount: "NaN", count: 0 },
    { amount: "1e3", count: 0 },
    { amount: "1", count: -1 },
    { amount: "1", count: 1.5 },
  ];
  it.each(corrupt)("a corrupt total ($amount, $count) throws rather than guesses", (total) => {
    const body = assetTransferBody();
    const windows = [amountWindow("daily")];
    expect(() => velocity(body, windows, totalsFor(body, windows, { daily: total }))).toThrow(/velocity total for window daily/);
  });
});
