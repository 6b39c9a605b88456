import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { explain } from "../../../src/commands/explain.js";
import { BIN, runCli } from "../../support/cli.js";
import { EXAMPLE_ENV } from "../../support/example-bundle.js";
import { EXAMPLE_POLICIES, EXAMPLES, writeBundle } from "../../support/service.js";

const INVALID = `
version: "bad.1"
default: deny
rules:
  - id: fine
    decision: allow
    when: {"var": "transfer.destination.internal"}
  - id: sneaky
    decision: deny
    when: {"==": [{"var": "tx.__proto__.polluted"}, "x"]}
`;

const FAILING_CASE = `
cases:
  - name: this case expects the wrong thing
    transaction:
      name: vaults/v1/transactions/t1
      details: {assetTransfer: {asset: assets/native.ethereum-mainnet, amount: "1", source: vaults/v1/wallets/a, destination: vaults/v1/wallets/b}}
    expect: deny
  - name: this one is right
    transaction:
      name: vaults/v1/transactions/t2
      details: {assetTransfer: {asset: assets/native.ethereum-mainnet, amount: "1", source: vaults/v1/wallets/a, destination: vaults/v1/wallets/b}}
    expect: allow
`;

const LONG_WINDOW = `version: "t.1"
default: deny
windows:
  - {name: yearly, duration: 401d, groupBy: [sourceWallet, asset], measure: amount}
rules:
  - id: yearly-limit
    decision: deny
    when: {">": [{"var": "velocity.yearly.amountAfter"}, "1000"]}
`;

describe("countersign policy check", () => {
  it("passes on the example bundle and prints N passed, N failed", async () => {
    const result = await runCli(["policy", "check", EXAMPLE_POLICIES]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^[1-9][0-9]* passed, 0 failed$/m);
  });

  it("exits 1 on a failing case and names it", async () => {
    const dir = writeBundle(`version: "t.1"\ndefault: deny\nrules:\n  - id: internal\n    decision: allow\n    when: {"var": "transfer.destination.internal"}\n`, {
      "cases.yaml": FAILING_CASE,
    });
    const result = await runCli(["policy", "check", dir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("FAIL tests/cases.yaml: this case expects the wrong thing");
    expect(result.stdout).toContain("expected deny, got allow");
    expect(result.stdout).toMatch(/^1 passed, 1 failed$/m);
  });

  it("counts a test file that is not YAML as a failure and still prints the summary", async () => {
    const dir = writeBundle(`version: "t.1"\ndefault: deny\nrules:\n  - id: internal\n    decision: allow\n    when: {"var": "transfer.destination.internal"}\n`, {
      "cases.yaml": FAILING_CASE,
      "broken.yaml": "cases: [ {name: x\n",
    });
    const result = await runCli(["policy", "check", dir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("FAIL tests/broken.yaml: (file cannot be read as YAML or JSON)");
    expect(result.stdout).toMatch(/^1 passed, 2 failed$/m);
  });

  // Only tests/ itself is read: cases in tests/eth/ or a .YAML file passed as "1 passed, 0 failed" unrun.
  it("fails on a YAML file under tests/ that no run reads, naming it", async () => {
    const dir = writeBundle(`version: "t.1"\ndefault: deny\nrules:\n  - id: internal\n    decision: allow\n    when: {"var": "transfer.destination.internal"}\n`, {
      "cases.yaml": FAILING_CASE.replace("expect: deny", "expect: allow"),
      "limits.YAML": FAILING_CASE,
    });
    mkdirSync(path.join(dir, "tests", "eth"));
    writeFileSync(path.join(dir, "tests", "eth", "limits.yaml"), FAILING_CASE);
    const result = await runCli(["policy", "check", dir]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`FAIL ${path.join("tests", "eth", "limits.yaml")}: (not run)`);
    expect(result.stdout).toContain("FAIL tests/limits.YAML: (not run)");
    expect(result.stdout).toContain("policy tests are read from tests/ itself");
    expect(result.stdout).toMatch(/^2 passed, 2 failed$/m);
    // Transaction bodies in a subdirectory are not test files.
    expect((await runCli(["policy", "check", EXAMPLE_POLICIES])).code).toBe(0);
  });

  it("exits 1 on an invalid bundle with the file, rule and path", async () => {
    const result = await runCli(["policy", "check", writeBundle(INVALID)]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/policy\.yaml.*sneaky.*rules\[1\]\.when.*__proto__/);
  });

  it("refuses a window longer than the ledger's retention, as serve would, and names the window and the setting", async () => {
    const dir = writeBundle(LONG_WINDOW);
    const refused = await runCli(["policy", "check", dir]); // the service's default retention, 400d
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('"yearly" (401d)');
    expect(refused.stdout).toContain("COUNTERSIGN_LEDGER_RETENTION");
    expect(refused.stdout).toMatch(/^0 passed, 1 failed$/m);
    const raised = await runCli(["policy", "check", dir, "--allow-no-tests"], { env: { COUNTERSIGN_LEDGER_RETENTION: "401d" } });
    expect(raised.code).toBe(0);
    expect(raised.stdout).toMatch(/^0 passed, 0 failed$/m);
    const unreadable = await runCli(["policy", "check", dir], { env: { COUNTERSIGN_LEDGER_RETENTION: "forever" } });
    expect(unreadable.code).toBe(1);
    expect(unreadable.stdout).toContain('COUNTERSIGN_LEDGER_RETENTION: must be a duration such as 60s, 15m, 1h (got "forever")');
    // Parsed as serve parses it: past the longest a window may be, too.
    const tooLong = await runCli(["policy", "check", dir], { env: { COUNTERSIGN_LEDGER_RETENTION: "999999999d" } });
    expect(tooLong.code).toBe(1);
    expect(tooLong.stdout).toContain('COUNTERSIGN_LEDGER_RETENTION: must be at most 3660d (got "999999999d")');
  });
});

describe("countersign serve with an invalid bundle", () => {
  it("stops with messages that name the file, rule and path", async () => {
    const result = await runCli(["serve"], {
      env: { COUNTERSIGN_POLICIES: writeBundle(INVALID), COUNTERSIGN_PORT: "0", COUNTERSIGN_DATA_DIR: ":memory:" },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/policy\.yaml.*rule "sneaky".*rules\[1\]\.when/);
  });

  it("stops on a window longer than COUNTERSIGN_LEDGER_RETENTION, naming both", async () => {
    const result = await runCli(["serve"], {
      env: { COUNTERSIGN_POLICIES: writeBundle(LONG_WINDOW), COUNTERSIGN_PORT: "0", COUNTERSIGN_DATA_DIR: ":memory:", COUNTERSIGN_LEDGER_RETENTION: "400d" },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/windows longer than the ledger's retention \(COUNTERSIGN_LEDGER_RETENTION, 400d\): "yearly" \(401d\)/);
  });

  it("stops on invalid configuration with one message per problem", async () => {
    const result = await runCli(["serve"], { env: { COUNTERSIGN_PORT: "99999", COUNTERSIGN_API_URL: "https://api.example" } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("COUNTERSIGN_PORT");
    expect(result.stderr).toContain("COUNTERSIGN_SERVICE_ACCOUNT_EMAIL: required when COUNTERSIGN_API_URL is set");
  });
});

describe("countersign explain", () => {
  it("prints the decision and the matched rules of a file", async () => {
    const result = await runCli(["explain", path.join(EXAMPLES, "evm-delegation.json"), "--policies", EXAMPLE_POLICIES]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("decision: deny");
    expect(result.stdout).toContain("matched deny only-transfers");
  });

  it("reads standard input and prints JSON with --json", async () => {
    const input = readFileSync(path.join(EXAMPLES, "api-shape-token-transfer.json"), "utf8");
    // Offline, the example's dollar window prices the transfer only with the prices stated.
    const result = await runCli(["explain", "-", "--json", "--policies", EXAMPLE_POLICIES, "--prices", EXAMPLE_ENV.COUNTERSIGN_ASSET_PRICES!], { input });
    expect(result.code).toBe(0);
    const trace = JSON.parse(result.stdout) as { decision: string; facts: { transfer: { amount: string } }[] };
    expect(trace.decision).toBe("deny");
    expect(trace.facts[0]!.transfer.amount).toBe("120.5");
  });

  it("prices offline with the COUNTERSIGN_ASSET_PRICES pins of its environment, a --prices price winning for its asset", async () => {
    const body = path.join(EXAMPLES, "api-shape-token-transfer.json");
    const withoutPins = await runCli(["explain", body, "--policies", EXAMPLE_POLICIES]);
    expect(withoutPins.stdout).toMatch(/decision: defer .*\n {2}reason: price unknown for assets\//);
    const pinned = await runCli(["explain", body, "--json", "--policies", EXAMPLE_POLICIES], { env: { ...EXAMPLE_ENV } });
    const pinnedTrace = JSON.parse(pinned.stdout) as { decision: string; facts: { transfer: { usdPrice: string | null } }[] };
    expect(pinnedTrace.decision).toBe("deny");
    expect(pinnedTrace.facts[0]!.transfer.usdPrice).toBe("1");
    const asset = Object.keys(JSON.parse(EXAMPLE_ENV.COUNTERSIGN_ASSET_PRICES!) as object).find((a) => a.startsWith("assets/erc20."))!;
    const stated = await runCli(["explain", body, "--json", "--policies", EXAMPLE_POLICIES, "--prices", JSON.stringify({ [asset]: "0.99" })], { env: { ...EXAMPLE_ENV } });
    expect((JSON.parse(stated.stdout) as { facts: { transfer: { usdPrice: string } }[] }).facts[0]!.transfer.usdPrice).toBe("0.99");
    const broken = await runCli(["explain", body, "--policies", EXAMPLE_POLICIES], { env: { COUNTERSIGN_ASSET_PRICES: '{"assets/native.ethereum-mainnet": 3000}' } });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/COUNTERSIGN_ASSET_PRICES: assets\/native\.ethereum-mainnet: a price is a positive decimal/);
  });

  it("ends quietly with its own exit code when the reader has closed the pipe (explain FILE | head -1)", async () => {
    const child = spawn(process.execPath, [BIN, "explain", path.join(EXAMPLES, "evm-delegation.json"), "--policies", EXAMPLE_POLICIES], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    // As `head -1` does once it has its line: the read end is closed before the trace is written.
    child.stdout.destroy();
    const [code] = (await once(child, "close")) as [number | null];
    expect(stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(code).toBe(0);
  });

  it("names the token amounts only the running service can check (the token's decimals), in text and JSON", async () => {
    const body = JSON.parse(readFileSync(path.join(EXAMPLES, "api-shape-token-transfer.json"), "utf8")) as { transfers: Record<string, unknown>[] };
    body.transfers[0]!.rawAmount = "120500000000000000000";
    const run = async (json: boolean) => {
      const lines: string[] = [];
      const code = await explain({ file: "-", policies: EXAMPLE_POLICIES, now: new Date(), json, readStdin: async () => JSON.stringify(body) }, (l) => lines.push(l));
      expect(code).toBe(0);
      return lines.join("\n");
    };
    expect(await run(false)).toMatch(
      /not checked offline: transfer 0: amount 120\.5 against its rawAmount \(120500000000000000000\) at the decimals of assets\/erc20\.ethereum-mainnet\.0xa0b8.*a disagreement is refused with 400, unknown decimals defer/,
    );
    expect((JSON.parse(await run(true)) as { uncheckedOffline: string[] }).uncheckedOffline).toEqual([expect.stringMatching(/^transfer 0: amount 120\.5 against its rawAmount/)]);
    // A transfer stated once needs no decimals: nothing to name.
    delete body.transfers[0]!.rawAmount;
    expect(await run(false)).not.toMatch(/not checked offline/);
    expect(JSON.parse(await run(true))).not.toHaveProperty("uncheckedOffline");
  });

  it("refuses a malformed transaction with its error code", async () => {
    const result = await runCli(["explain", "-", "--policies", EXAMPLE_POLICIES], { input: '{"name": "nope"}' });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("NOT_A_TRANSACTION");
  });
});
