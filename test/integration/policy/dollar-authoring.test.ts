/**
 * Writing a policy in dollars (docs/policies.md "Limits in dollars"): the loader takes `measure:
 * usd` windows across assets and checks their facts; `policy check` cases state prices beside
 * `velocity`; `explain FILE --prices` decides offline with the same prices.
 */
import path from "node:path";
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runPolicyTests } from "../../../src/policy/check.js";
import { loadBundle } from "../../../src/policy/load.js";
import { runCli } from "../../support/cli.js";
import { writeBundle } from "../../support/service.js";

const ETH = "assets/native.ethereum-mainnet";
const USDC = "assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";

const POLICY = `version: "dollars.1"
default: deny
windows:
  - {name: daily_usd, duration: 24h, groupBy: [sourceWallet], measure: usd}
rules:
  - id: daily-dollar-limit
    decision: deny
    reason: At most $250,000 a day from one wallet
    when: {">": [{"var": "velocity.daily_usd.usdAfter"}, "250000"]}
  - id: large-waits
    decision: defer
    when: {">": [{"var": "transfer.usd"}, "50000"]}
  - id: internal
    decision: allow
    when: {"var": "transfer.destination.internal"}
`;

const transfer = (asset: string, amount: string) =>
  `{name: vaults/v1/transactions/t-${amount}, details: {assetTransfer: {asset: "${asset}", amount: "${amount}", source: vaults/v1/wallets/hot, destination: vaults/v1/wallets/cold}}}`;

const CASES = `cases:
  - name: ETH priced by the case, within the day's dollars
    prices: {"${ETH}": "3000", "${USDC}": "1"}
    velocity: {daily_usd: {usd: "240000", count: 3}}
    transaction: ${transfer(ETH, "3")}
    expect: allow
  - name: the same ETH past the day's dollars
    prices: {"${ETH}": "3000"}
    velocity: {daily_usd: {usd: "241000.01", count: 3}}
    transaction: ${transfer(ETH, "3")}
    expect: deny
    expectRules: [daily-dollar-limit, internal]
  - name: a large transfer in dollars waits
    prices: {"${USDC}": "0.9999"}
    transaction: ${transfer(USDC, "50006")}
    expect: defer
    expectRules: [internal, large-waits]
  - name: without a price the dollar window cannot charge it
    transaction: ${transfer(ETH, "1")}
    expect: defer
`;

describe("a bundle in dollars", () => {
  it("loads a usd window grouped without asset, and refuses an amount read of it", async () => {
    expect((await loadBundle(writeBundle(POLICY))).ok).toBe(true);
    const wrong = POLICY.replace("velocity.daily_usd.usdAfter", "velocity.daily_usd.amountAfter");
    const loaded = await loadBundle(writeBundle(wrong));
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.error.message).toMatch(/window "daily_usd" measures usd, it has no amountAfter/);
  });

  it("policy check runs cases that state prices and dollar totals, and defers a case without a price as the service would", async () => {
    const loaded = await loadBundle(writeBundle(POLICY, { "dollars.yaml": CASES }));
    if (!loaded.ok) throw new Error(loaded.error.message);
    const results = await runPolicyTests(loaded.value);
    expect(results.map((r) => [r.name, r.passed, r.failures])).toEqual([
      ["ETH priced by the case, within the day's dollars", true, []],
      ["the same ETH past the day's dollars", true, []],
      ["a large transfer in dollars waits", true, []],
      ["without a price the dollar window cannot charge it", true, []],
    ]);
    expect(results[3]!.outcome!.reasons).toEqual([`price unknown for ${ETH}`]);
  });

  it("prices at the top of a test file hold for every case, and a case's own win asset by asset", async () => {
    const file = `prices: {"${ETH}": "3000"}
cases:
  - name: the file's price puts 3 ETH past the day's dollars
    velocity: {daily_usd: {usd: "241000.01", count: 3}}
    transaction: ${transfer(ETH, "3")}
    expect: deny
  - name: the case's own price keeps the same ETH within them
    prices: {"${ETH}": "2000"}
    velocity: {daily_usd: {usd: "241000.01", count: 3}}
    transaction: ${transfer(ETH, "3")}
    expect: allow
`;
    const loaded = await loadBundle(writeBundle(POLICY, { "file-prices.yaml": file }));
    if (!loaded.ok) throw new Error(loaded.error.message);
    const results = await runPolicyTests(loaded.value);
    expect(results.map((r) => [r.name, r.passed, r.failures])).toEqual([
      ["the file's price puts 3 ETH past the day's dollars", true, []],
      ["the case's own price keeps the same ETH within them", true, []],
    ]);
  });

  it("policy check refuses a price that is not a positive decimal string", async () => {
    const dir = writeBundle(POLICY, { "bad.yaml": CASES.replace('"3000", "', '"0", "') });
    const result = await runCli(["policy", "check", dir]);
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toMatch(/a price is a positive decimal written as a string/);
  });

  it("explain decides offline with --prices, and without them defers as the service would", async () => {
    const dir = writeBundle(POLICY);
    const body = path.join(dir, "body.json");
    writeFileSync(
      body,
      JSON.stringify({
        name: "vaults/v1/transactions/x",
        details: { assetTransfer: { asset: ETH, amount: "20", source: "vaults/v1/wallets/hot", destination: "vaults/v1/wallets/cold" } },
      }),
    );
    const priced = await runCli(["explain", body, "--json", "--policies", dir, "--prices", JSON.stringify({ [ETH]: "3000.5" })]);
    expect(priced.code).toBe(0);
    const trace = JSON.parse(priced.stdout) as { decision: string; facts: { transfer: { usd: string }; velocity: { daily_usd: unknown } }[] };
    expect(trace.decision).toBe("defer");
    expect(trace.facts[0]!.transfer.usd).toBe("60010");
    expect(trace.facts[0]!.velocity.daily_usd).toEqual({ usd: "0", count: 0, usdAfter: "60010", countAfter: 1 });
    const unpriced = await runCli(["explain", body, "--json", "--policies", dir]);
    expect(JSON.parse(unpriced.stdout)).toMatchObject({ decision: "defer", reasons: [`price unknown for ${ETH}`] });
    const bad = await runCli(["explain", body, "--policies", dir, "--prices", '{"assets/x": 1}']);
    expect(bad.code).toBe(2);
  });
});
