/**
 * Configuration errors stop the process with one message per problem (docs/interface.md section 8):
 * blank secrets, an open webhook on a non-loopback address, bad timeouts and caps.
 */
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, isLoopbackHost, loadConfig } from "../../../src/config.js";
import { runCli } from "../../support/cli.js";
import { createTestServiceAccount, writeTempPem } from "../../support/service-account.js";

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("blank secrets are configuration errors, not 'unset'", () => {
  for (const variable of ["COUNTERSIGN_WEBHOOK_TOKEN", "COUNTERSIGN_ADMIN_TOKEN", "COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE"]) {
    it(`${variable}="" and "  " are refused, each with one message`, () => {
      for (const blank of ["", "   "]) {
        const problems = problemsOf({ [variable]: blank });
        expect(problems).toHaveLength(1);
        expect(problems[0]).toMatch(new RegExp(`^${variable}: is set but blank`));
      }
    });
  }

  it("a token with whitespace in it is refused (it could never match a bearer token)", () => {
    expect(problemsOf({ COUNTERSIGN_WEBHOOK_TOKEN: "abc def" })).toEqual([expect.stringMatching(/^COUNTERSIGN_WEBHOOK_TOKEN: contains whitespace/)]);
  });

  it("a blank service-account key file beside the API URL is one problem, not two", () => {
    const problems = problemsOf({
      COUNTERSIGN_API_URL: "https://api.custody.example",
      COUNTERSIGN_SERVICE_ACCOUNT_EMAIL: "countersign@example.com",
      COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE: "",
      COUNTERSIGN_VAULTS: "v1",
    });
    expect(problems).toEqual([expect.stringMatching(/^COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE: is set but blank/)]);
  });

  it("several problems are reported together", () => {
    const problems = problemsOf({ COUNTERSIGN_WEBHOOK_TOKEN: "", COUNTERSIGN_ADMIN_TOKEN: "", COUNTERSIGN_DECISION_TIMEOUT: "soon" });
    expect(problems).toHaveLength(3);
  });

  it("problems beyond the schema (a proxy, OIDC, decimals pins, a key file) are reported beside the schema's, not at the next start", () => {
    const problems = problemsOf({
      COUNTERSIGN_PORT: "eighty",
      COUNTERSIGN_TRUST_PROXY: "bogus",
      COUNTERSIGN_OIDC_ISSUER: "https://login.example.com",
      COUNTERSIGN_ASSET_DECIMALS: "{not json",
      COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE: "/nonexistent/events.pem",
    });
    expect(problems).toEqual([
      expect.stringMatching(/^COUNTERSIGN_PORT: /),
      expect.stringMatching(/^COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE: cannot read/),
      expect.stringMatching(/^COUNTERSIGN_OIDC_AUDIENCE: required/),
      expect.stringMatching(/^COUNTERSIGN_ASSET_DECIMALS: /),
      expect.stringMatching(/^COUNTERSIGN_TRUST_PROXY: /),
    ]);
  });

  it("a variable the schema refuses is reported once, not again as if unset", () => {
    const problems = problemsOf({
      COUNTERSIGN_API_URL: "http://api.custody.example",
      COUNTERSIGN_SERVICE_ACCOUNT_EMAIL: "countersign@example.com",
      COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE: "/nonexistent/key.pem",
      COUNTERSIGN_VAULTS: "v1",
    });
    expect(problems).toEqual([expect.stringMatching(/^COUNTERSIGN_API_URL: must be an https URL/)]);
  });
});

describe("COUNTERSIGN_API_URL", () => {
  // The service account's bearer JWT goes to it and the address book comes back from it.
  const withApi = (url: string) => ({
    COUNTERSIGN_API_URL: url,
    COUNTERSIGN_SERVICE_ACCOUNT_EMAIL: "countersign@example.com",
    COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE: "/nonexistent/key.pem",
    COUNTERSIGN_VAULTS: "v1",
  });
  const TLS_ONLY = "COUNTERSIGN_API_URL: must be an https URL (http only on this machine: 127.0.0.1, localhost, [::1])";

  it.each(["http://api.custody.example", "http://10.0.0.7:8443", "http://127.0.0.1.example.com", "http://[::2]", "ftp://api.custody.example", "api.custody.example", "not a url"])(
    "refuses %j with one message naming it",
    (url) => {
      expect(problemsOf(withApi(url))).toEqual([TLS_ONLY]);
    },
  );

  it.each(["https://api.custody.example", "https://10.0.0.7:8443/v2", "http://127.0.0.1:8080", "http://localhost:8080", "http://[::1]:8080"])("accepts %j", (url) => {
    expect(problemsOf(withApi(url))).toEqual(["COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE: cannot read /nonexistent/key.pem"]);
  });
});

describe("weak tokens", () => {
  const WEBHOOK = "3f1c9e0a7b2d4c6e8f1a3b5c7d9e0f21";
  const ADMIN = "9a8b7c6d5e4f30211f2e3d4c5b6a7988";

  it.each(["COUNTERSIGN_WEBHOOK_TOKEN", "COUNTERSIGN_ADMIN_TOKEN", "COUNTERSIGN_METRICS_TOKEN"])(
    "%s shorter than 16 characters is refused, with one message suggesting openssl",
    (variable) => {
      for (const short of ["x", "admin", "s3cret-token", "a".repeat(15)]) {
        expect(problemsOf({ [variable]: short }), short).toEqual([
          `${variable}: is ${short.length} character${short.length === 1 ? "" : "s"} long; give at least 16, e.g. \`openssl rand -hex 32\``,
        ]);
      }
      expect(problemsOf({ [variable]: "a".repeat(16) })).toEqual([]);
    },
  );

  it("a short token is never printed in the message", () => {
    const [problem] = problemsOf({ COUNTERSIGN_WEBHOOK_TOKEN: "hunter2" });
    expect(problem).not.toContain("hunter2");
  });

  it("the admin token may not be the webhook token (the co-signer holds that one)", () => {
    expect(problemsOf({ COUNTERSIGN_WEBHOOK_TOKEN: WEBHOOK, COUNTERSIGN_ADMIN_TOKEN: WEBHOOK })).toEqual([
      "COUNTERSIGN_ADMIN_TOKEN: must differ from COUNTERSIGN_WEBHOOK_TOKEN; the co-signer holds the webhook token, give the admin endpoints their own (`openssl rand -hex 32`)",
    ]);
    const config = loadConfig({ COUNTERSIGN_WEBHOOK_TOKEN: WEBHOOK, COUNTERSIGN_ADMIN_TOKEN: ADMIN });
    expect([config.webhookToken, config.adminToken]).toEqual([WEBHOOK, ADMIN]);
  });

  it("the metrics token may be neither the webhook token nor the admin token (Prometheus holds it)", () => {
    const METRICS = "0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a";
    const problem = "COUNTERSIGN_METRICS_TOKEN: must differ from COUNTERSIGN_WEBHOOK_TOKEN and COUNTERSIGN_ADMIN_TOKEN; give the scraper its own (`openssl rand -hex 32`)";
    expect(problemsOf({ COUNTERSIGN_WEBHOOK_TOKEN: WEBHOOK, COUNTERSIGN_METRICS_TOKEN: WEBHOOK })).toEqual([problem]);
    expect(problemsOf({ COUNTERSIGN_ADMIN_TOKEN: ADMIN, COUNTERSIGN_METRICS_TOKEN: ADMIN })).toEqual([problem]);
    const config = loadConfig({ COUNTERSIGN_WEBHOOK_TOKEN: WEBHOOK, COUNTERSIGN_ADMIN_TOKEN: ADMIN, COUNTERSIGN_METRICS_TOKEN: METRICS });
    expect(config.metricsToken).toBe(METRICS);
  });

  it("stops `countersign serve` at start on a short webhook token", async () => {
    const result = await runCli(["serve"], { env: { COUNTERSIGN_WEBHOOK_TOKEN: "x", COUNTERSIGN_DATA_DIR: ":memory:", COUNTERSIGN_PORT: "0" } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/COUNTERSIGN_WEBHOOK_TOKEN: is 1 character long; give at least 16, e.g. `openssl rand -hex 32`/);
    expect(result.stdout).not.toMatch(/countersign serving/);
  });
});

describe("an open webhook", () => {
  it("is refused on a non-loopback address", () => {
    for (const host of ["0.0.0.0", "::", "10.1.2.3", "policy.internal"]) {
      const problems = problemsOf({ COUNTERSIGN_HOST: host });
      expect(problems, host).toEqual([expect.stringMatching(/^COUNTERSIGN_WEBHOOK_TOKEN: required when COUNTERSIGN_HOST is not a loopback address/)]);
    }
  });

  it("is allowed on loopback, and a token makes any address fine", () => {
    for (const host of ["127.0.0.1", "127.0.0.53", "::1", "[::1]", "localhost"]) expect(problemsOf({ COUNTERSIGN_HOST: host }), host).toEqual([]);
    expect(problemsOf({ COUNTERSIGN_HOST: "0.0.0.0", COUNTERSIGN_WEBHOOK_TOKEN: "s3cret-webhook-token" })).toEqual([]);
  });

  it("loopback detection does not take look-alikes", () => {
    expect(isLoopbackHost("127.0.0.1.example.com")).toBe(false);
    expect(isLoopbackHost("localhost.example.com")).toBe(false);
    expect(isLoopbackHost("0.0.0.0")).toBe(false);
  });
});

describe("the clock skew a process may have against the database", () => {
  it("defaults to 2 s, takes 100 ms to an hour, and refuses less and more", () => {
    expect(loadConfig({}).maxClockSkewMs).toBe(2_000);
    expect(loadConfig({ COUNTERSIGN_MAX_CLOCK_SKEW: "500ms" }).maxClockSkewMs).toBe(500);
    expect(loadConfig({ COUNTERSIGN_MAX_CLOCK_SKEW: "1h" }).maxClockSkewMs).toBe(3_600_000);
    expect(problemsOf({ COUNTERSIGN_MAX_CLOCK_SKEW: "0s" })).toHaveLength(1);
    expect(problemsOf({ COUNTERSIGN_MAX_CLOCK_SKEW: "50ms" })).toEqual([expect.stringMatching(/^COUNTERSIGN_MAX_CLOCK_SKEW: must be at least 100ms/)]);
    expect(loadConfig({ COUNTERSIGN_MAX_CLOCK_SKEW: "100ms" }).maxClockSkewMs).toBe(100);
    expect(problemsOf({ COUNTERSIGN_MAX_CLOCK_SKEW: "2h" })).toEqual([expect.stringMatching(/^COUNTERSIGN_MAX_CLOCK_SKEW: must be at most 1h/)]);
  });
});

describe("decision timeout and window-group cap", () => {
  it("default to 5 s and 256", () => {
    const config = loadConfig({});
    expect(config.decisionTimeoutMs).toBe(5_000);
    expect(config.maxWindowGroups).toBe(256);
  });

  it("accept milliseconds and seconds, refuse zero and nonsense", () => {
    expect(loadConfig({ COUNTERSIGN_DECISION_TIMEOUT: "750ms" }).decisionTimeoutMs).toBe(750);
    expect(loadConfig({ COUNTERSIGN_DECISION_TIMEOUT: "2s" }).decisionTimeoutMs).toBe(2_000);
    expect(problemsOf({ COUNTERSIGN_DECISION_TIMEOUT: "0s" })).toHaveLength(1);
    expect(problemsOf({ COUNTERSIGN_DECISION_TIMEOUT: "-1s" })).toHaveLength(1);
    expect(problemsOf({ COUNTERSIGN_MAX_WINDOW_GROUPS: "0" })).toHaveLength(1);
    expect(loadConfig({ COUNTERSIGN_MAX_WINDOW_GROUPS: "16" }).maxWindowGroups).toBe(16);
  });
});

describe("the bounds of an address-book sync", () => {
  it("COUNTERSIGN_ADDRESS_BOOK_MAX_ITEMS and _MAX_MIB take whole numbers within their bounds", () => {
    for (const bad of ["0", "999", "1.5", "lots", "100000001"]) expect(problemsOf({ COUNTERSIGN_ADDRESS_BOOK_MAX_ITEMS: bad }), bad).toHaveLength(1);
    for (const bad of ["0", "0.5", "16385"]) expect(problemsOf({ COUNTERSIGN_ADDRESS_BOOK_MAX_MIB: bad }), bad).toHaveLength(1);
    expect(problemsOf({ COUNTERSIGN_ADDRESS_BOOK_MAX_ITEMS: "2000000", COUNTERSIGN_ADDRESS_BOOK_MAX_MIB: "1024" })).toEqual([]);
  });
});

describe("periods that arm a timer have a maximum", () => {
  // Past 2^31−1 ms (about 24.8 days) Node's setTimeout and setInterval fire after 1 ms: a refresh
  // of 25d hammered the custody API, a reload interval of 30d busy-looped.
  it.each(["COUNTERSIGN_POLICY_RELOAD_INTERVAL", "COUNTERSIGN_ADDRESS_BOOK_REFRESH", "COUNTERSIGN_ADDRESS_BOOK_MAX_AGE"])("%s is at most 24d", (variable) => {
    expect(problemsOf({ [variable]: "24d" })).toEqual([]);
    expect(problemsOf({ [variable]: "576h" })).toEqual([]);
    for (const long of ["25d", "30d", "577h", "999999999d"]) expect(problemsOf({ [variable]: long }), long).toEqual([`${variable}: must be at most 24d (got "${long}")`]);
  });

  it("loads the periods it accepts", () => {
    const config = loadConfig({ COUNTERSIGN_POLICY_RELOAD_INTERVAL: "24d" });
    expect(config.policyReloadSeconds).toBe(24 * 86400);
    expect(config.policyReloadSeconds * 1000).toBeLessThanOrEqual(2 ** 31 - 1);
  });

  it("COUNTERSIGN_DECISION_TIMEOUT is at most 60s (25d made every delivery answer 503 at once)", () => {
    for (const ok of ["60s", "1m", "60000ms"]) expect(loadConfig({ COUNTERSIGN_DECISION_TIMEOUT: ok }).decisionTimeoutMs, ok).toBe(60_000);
    for (const long of ["61s", "2m", "60001ms", "999999999ms", "25d"]) {
      expect(problemsOf({ COUNTERSIGN_DECISION_TIMEOUT: long }), long).toEqual([`COUNTERSIGN_DECISION_TIMEOUT: must be at most 60s (got "${long}")`]);
    }
  });

  it("COUNTERSIGN_LEDGER_RETENTION is no timer: up to ten years, as long as a window may be, and no further (999999999d made the pruner's cut-off no date)", () => {
    expect(loadConfig({ COUNTERSIGN_LEDGER_RETENTION: "3660d" }).ledgerRetentionSeconds).toBe(3660 * 86400);
    expect(problemsOf({ COUNTERSIGN_LEDGER_RETENTION: "999999999d" })).toEqual(['COUNTERSIGN_LEDGER_RETENTION: must be at most 3660d (got "999999999d")']);
  });
});

describe("a blank database URL", () => {
  it.each(["DATABASE_URL", "COUNTERSIGN_MIGRATE_DATABASE_URL"])("%s=\"\" is refused, not read as 'use the embedded database'", (variable) => {
    expect(problemsOf({ [variable]: "" })).toEqual([`${variable}: is set but blank; unset it to use the embedded database, or give a postgres:// URL`]);
    expect(problemsOf({ [variable]: "  " })).toHaveLength(1);
  });

  it("stops `countersign migrate` before it opens anything", async () => {
    const run = await runCli(["migrate"], { env: { DATABASE_URL: "", COUNTERSIGN_DATA_DIR: "/nonexistent/countersign" } });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/DATABASE_URL: is set but blank/);
  });
});

describe("COUNTERSIGN_TRUST_PROXY", () => {
  it("trusts no proxy by default; takes a hop count, addresses, subnets and express's named ranges", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ COUNTERSIGN_TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(loadConfig({ COUNTERSIGN_TRUST_PROXY: "loopback, 10.0.0.0/8,fd00::/8, 192.168.1.7" }).trustProxy).toEqual(["loopback", "10.0.0.0/8", "fd00::/8", "192.168.1.7"]);
  });

  it.each(["0", "11", "true", "*", "10.0.0.0/33", "10.0.0.0/8/1", "proxy.internal", "loopback,"])("refuses %j, naming it", (value) => {
    expect(problemsOf({ COUNTERSIGN_TRUST_PROXY: value })).toEqual([expect.stringMatching(/^COUNTERSIGN_TRUST_PROXY: /)]);
  });
});

describe("COUNTERSIGN_ASSET_PRICES and COUNTERSIGN_PRICE_MAX_AGE", () => {
  const USDC = "assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";

  it("loads prices as canonical decimal strings, with a minute's max age by default", () => {
    const config = loadConfig({ COUNTERSIGN_ASSET_PRICES: JSON.stringify({ [USDC.replace("0xa0b8", "0xA0B8")]: "1.00" }) });
    expect(config.assetPricePins).toEqual(new Map([[USDC, "1"]]));
    expect(config.priceMaxAgeMs).toBe(60_000);
    expect(loadConfig({ COUNTERSIGN_PRICE_MAX_AGE: "500ms" }).priceMaxAgeMs).toBe(500);
  });

  it("refuses a price that is a number, zero, negative or not a decimal, and a max age past a day, each named", () => {
    expect(
      problemsOf({
        COUNTERSIGN_ASSET_PRICES: JSON.stringify({
          [USDC]: 1,
          "assets/native.ethereum-mainnet": "0",
          "assets/native.bitcoin-mainnet": "-3",
          "assets/native.solana-mainnet": "1e3",
          usdc: "1",
        }),
      }),
    ).toEqual([
      expect.stringMatching(/^COUNTERSIGN_ASSET_PRICES: assets\/erc20\..*: a price is a positive decimal written as a string/),
      expect.stringMatching(/^COUNTERSIGN_ASSET_PRICES: assets\/native\.ethereum-mainnet: a price is a positive decimal/),
      expect.stringMatching(/^COUNTERSIGN_ASSET_PRICES: assets\/native\.bitcoin-mainnet: a price is a positive decimal/),
      expect.stringMatching(/^COUNTERSIGN_ASSET_PRICES: assets\/native\.solana-mainnet: a price is a positive decimal/),
      expect.stringMatching(/^COUNTERSIGN_ASSET_PRICES: "usdc" is not an asset resource name/),
    ]);
    expect(problemsOf({ COUNTERSIGN_ASSET_PRICES: "[1]" })).toEqual([expect.stringMatching(/must be a JSON object/)]);
    expect(problemsOf({ COUNTERSIGN_PRICE_MAX_AGE: "2d" })).toEqual([expect.stringMatching(/^COUNTERSIGN_PRICE_MAX_AGE: must be at most 1d/)]);
  });
});

describe("COUNTERSIGN_ASSET_DECIMALS", () => {
  const USDC = "assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";

  it("loads as pins, and each bad entry is its own problem", () => {
    expect(loadConfig({ COUNTERSIGN_ASSET_DECIMALS: JSON.stringify({ [USDC]: 6 }) }).assetDecimalsPins).toEqual(new Map([[USDC, 6]]));
    expect(loadConfig({}).assetDecimalsPins.size).toBe(0);
    expect(problemsOf({ COUNTERSIGN_ASSET_DECIMALS: JSON.stringify({ usdc: 6, [USDC]: 6.5 }) })).toEqual([
      expect.stringMatching(/^COUNTERSIGN_ASSET_DECIMALS: "usdc" is not an asset resource name/),
      expect.stringMatching(/^COUNTERSIGN_ASSET_DECIMALS: assets\/erc20\..*: decimals must be an integer from 0 to 255/),
    ]);
  });

  it("stops `countersign serve` at start, naming it", async () => {
    const result = await runCli(["serve"], { env: { COUNTERSIGN_ASSET_DECIMALS: "{not json", COUNTERSIGN_DATA_DIR: ":memory:", COUNTERSIGN_PORT: "0" } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/COUNTERSIGN_ASSET_DECIMALS: is not JSON/);
    expect(result.stdout).not.toMatch(/countersign serving/);
  });
});

describe("countersign serve", () => {
  it("stops at start on a blank webhook token, naming it, and never listens", async () => {
    const result = await runCli(["serve"], { env: { COUNTERSIGN_WEBHOOK_TOKEN: "", COUNTERSIGN_DATA_DIR: ":memory:", COUNTERSIGN_PORT: "0" } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/COUNTERSIGN_WEBHOOK_TOKEN: is set but blank/);
    expect(result.stdout).not.toMatch(/countersign serving/);
  });

  it("stops at start on an open webhook bound to every address", async () => {
    const result = await runCli(["serve"], { env: { COUNTERSIGN_HOST: "0.0.0.0", COUNTERSIGN_DATA_DIR: ":memory:", COUNTERSIGN_PORT: "0" } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/COUNTERSIGN_WEBHOOK_TOKEN: required when COUNTERSIGN_HOST is not a loopback address \(0\.0\.0\.0\)/);
  });
});

describe("COUNTERSIGN_VERIFY_DELIVERIES", () => {
  const key = writeTempPem(createTestServiceAccount().privateKeyPem);
  afterAll(() => key.remove());
  const withApi = {
    COUNTERSIGN_API_URL: "https://api.custody.example",
    COUNTERSIGN_SERVICE_ACCOUNT_EMAIL: "countersign@example.com",
    COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE: key.path,
    COUNTERSIGN_VAULTS: "v1",
  };

  it("is platform when COUNTERSIGN_API_URL is set, off when it is not, and either when named", () => {
    expect(loadConfig(withApi).verifyDeliveries).toBe("platform");
    expect(loadConfig({}).verifyDeliveries).toBe("off");
    expect(loadConfig({ ...withApi, COUNTERSIGN_VERIFY_DELIVERIES: "off" }).verifyDeliveries).toBe("off");
  });

  it("refuses platform without a custody API to ask, and any other value", () => {
    expect(problemsOf({ COUNTERSIGN_VERIFY_DELIVERIES: "platform" })).toEqual([expect.stringMatching(/^COUNTERSIGN_VERIFY_DELIVERIES: platform needs COUNTERSIGN_API_URL/)]);
    expect(problemsOf({ ...withApi, COUNTERSIGN_VERIFY_DELIVERIES: "on" })).toEqual([expect.stringMatching(/^COUNTERSIGN_VERIFY_DELIVERIES: /)]);
  });
});
