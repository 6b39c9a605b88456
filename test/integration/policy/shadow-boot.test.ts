/**
 * A shadow candidate is never answered, so one that fails at boot (its own tests fail, it does not
 * parse, a window outlasts the ledger's retention) must not stop `serve`: the service answers on the
 * live bundle with the shadow off, says why once in the log, in `GET /v1/policy` and in metrics,
 * and a reload that fixes the candidate turns the shadow on, its windows claimed as at boot.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { metrics } from "@opentelemetry/api";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { policyStatus } from "../../../src/http/answers.js";
import { createLogger } from "../../../src/log.js";
import { reloadPolicies } from "../../../src/service.js";
import { startServiceProcess, type ServiceProcess } from "../../support/faults.js";
import { assetTransfer, ETH, VAULT } from "../../support/bodies.js";
import { CosignerSimulator } from "../../support/cosigner.js";
import { CollectingReader } from "../../support/metric-reader.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService, writeBundle } from "../../support/service.js";

const DAY = 86_400;
const RETENTION = "30d";

const policy = (version: string, limit: string, window = "1d") => `
version: "${version}"
default: deny
windows:
  - {name: daily_out, duration: ${window}, groupBy: [sourceWallet, asset], measure: amount}
rules:
  - id: single-limit
    decision: deny
    when: {">": [{"var": "transfer.amount"}, "${limit}"]}
  - id: internal
    decision: allow
    when: {"var": "transfer.destination.internal"}
`;

/** The candidate's own case: 700 out of a wallet is over its 500 limit. */
const cases = (expected: "allow" | "deny") => `
cases:
  - name: 700 is over the candidate's limit
    transaction: {name: vaults/v1/transactions/t1, details: {assetTransfer: {asset: ${ETH}, amount: "700", source: vaults/v1/wallets/a, destination: vaults/v1/wallets/b}}}
    expect: ${expected}
`;

interface Breakage {
  what: string;
  code: string;
  message: RegExp;
  /** Writes the broken candidate; `fix` writes it admissible, with a window of `fixedWindowDays`. */
  write(dir: string): void;
  fix(dir: string): void;
  fixedWindowDays: number;
}

const policyFile = (dir: string, text: string) => writeFileSync(path.join(dir, "policy.yaml"), text);
const testsFile = (dir: string, text: string) => writeFileSync(path.join(dir, "tests", "cases.yaml"), text);

const BREAKAGES: Breakage[] = [
  {
    what: "fails its own tests",
    code: "tests_failed",
    message: /fails 1 of its 1 test cases/,
    write: (dir) => testsFile(dir, cases("allow")),
    fix: (dir) => {
      policyFile(dir, policy("strict.2", "500", "7d"));
      testsFile(dir, cases("deny"));
    },
    fixedWindowDays: 7,
  },
  {
    what: "does not parse",
    code: "invalid",
    message: /policy\.yaml/,
    write: (dir) => policyFile(dir, 'version: "strict.1"\nrules: [unclosed\n'),
    fix: (dir) => policyFile(dir, policy("strict.2", "500", "7d")),
    fixedWindowDays: 7,
  },
  {
    what: "has a window longer than the retention",
    code: "invalid",
    message: /longer than the ledger's retention \(COUNTERSIGN_LEDGER_RETENTION, 30d\): "daily_out" \(31d\)/,
    write: (dir) => policyFile(dir, policy("strict.1", "500", "31d")),
    fix: (dir) => policyFile(dir, policy("strict.2", "500", "30d")),
    fixedWindowDays: 30,
  },
];

/** A candidate bundle with its own (passing) case, then broken as `breakage` says. */
function brokenCandidate(breakage: Breakage): string {
  const dir = writeBundle(policy("strict.1", "500"), { "cases.yaml": cases("deny") });
  breakage.write(dir);
  return dir;
}

type ShadowView = { loaded: boolean; version?: string; error: { code: string; message: string } | null };

/** The `shadow` section of `GET /v1/policy`, once the whole answer is checked against its OpenAPI schema. */
async function shadowStatus(url: string): Promise<ShadowView> {
  const answer = (await (await fetch(`${url}/v1/policy`)).json()) as { shadow: ShadowView };
  expect(policyStatus.safeParse(answer).error).toBeUndefined();
  return answer.shadow;
}

const OFF_LINE = "shadow policy bundle not loaded; shadow evaluation is off until a reload admits it";

describe("a shadow candidate that fails at boot", () => {
  const reader = new CollectingReader();
  beforeAll(() => {
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  });
  afterAll(() => {
    metrics.disable();
  });

  describe.each(BREAKAGES)("because it $what", (breakage) => {
    let tdb: TestDatabase;
    let service: Awaited<ReturnType<typeof startTestService>>;
    const lines: { level: string; msg: string; reason?: string }[] = [];
    const shadowDir = brokenCandidate(breakage);
    let failuresBefore = 0;

    beforeAll(async () => {
      failuresBefore = await reader.counter("countersign.shadow.load_failures", { reason: breakage.code });
      tdb = await createTestDatabase();
      service = await startTestService({
        database: tdb.handle,
        policiesDir: writeBundle(policy("live.1", "1000")),
        env: { COUNTERSIGN_SHADOW_POLICIES: shadowDir, COUNTERSIGN_LEDGER_RETENTION: RETENTION },
        logger: createLogger({ level: "info", write: (line) => lines.push(JSON.parse(line) as (typeof lines)[number]) }),
      });
    });
    afterAll(async () => {
      await service?.stop();
      await tdb?.drop();
    });

    const rowOf = (name: string) => tdb.handle.db.selectFrom("decisions").selectAll().where("transaction_name", "=", name).executeTakeFirstOrThrow();
    const claimedWindows = async () => (await tdb.handle.db.selectFrom("velocity_window_claims").select("window_seconds").execute()).map((r) => Number(r.window_seconds));

    it("starts on the live bundle with the shadow off, and says why once: /v1/policy, the log, the metrics", async () => {
      const cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
      const body = assetTransfer({ amount: "700", asset: ETH, source: `${VAULT}/wallets/shadowboot0` });
      expect((await cosigner.deliver(body)).verdict).toBe("signed");
      const row = await rowOf(body.name);
      expect([row.policy_version, row.shadow_policy_version, row.shadow_decision, row.shadow_error]).toEqual(["live.1", null, null, null]);

      const shadow = await shadowStatus(service.url);
      expect(shadow).toMatchObject({ loaded: false, error: { code: breakage.code } });
      expect(shadow.error!.message).toMatch(breakage.message);

      // The poll finds the same files: not compiled, logged or counted again.
      await reloadPolicies(service.policy, service.shadow);
      await reloadPolicies(service.policy, service.shadow);
      const off = lines.filter((l) => l.msg === OFF_LINE);
      expect(off.map((l) => [l.level, l.reason])).toEqual([["error", breakage.code]]);
      expect(await reader.gauge("countersign.shadow.loaded")).toBe(0);
      expect((await reader.counter("countersign.shadow.load_failures", { reason: breakage.code })) - failuresBefore).toBe(1);
      expect(await claimedWindows()).not.toContain(breakage.fixedWindowDays * DAY);
    });

    it("a reload that fixes the candidate turns the shadow on: its windows claimed, its verdicts recorded", async () => {
      breakage.fix(shadowDir);
      await reloadPolicies(service.policy, service.shadow);
      expect(await shadowStatus(service.url)).toMatchObject({ loaded: true, version: "strict.2", error: null });
      expect(lines.filter((l) => l.msg === "shadow policy bundle loaded; shadow evaluation is on")).toHaveLength(1);
      expect(await reader.gauge("countersign.shadow.loaded")).toBe(1);
      expect(await claimedWindows()).toContain(breakage.fixedWindowDays * DAY);

      const cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
      const body = assetTransfer({ amount: "700", asset: ETH, source: `${VAULT}/wallets/shadowboot1` });
      expect((await cosigner.deliver(body)).verdict).toBe("signed");
      const row = await rowOf(body.name);
      expect([row.decision, row.shadow_policy_version, row.shadow_decision, row.shadow_error]).toEqual(["allow", "strict.2", "deny", null]);
    });

    it("a reload that breaks it again keeps the candidate in force and says why under shadow.error", async () => {
      breakage.write(shadowDir);
      await reloadPolicies(service.policy, service.shadow);
      const shadow = await shadowStatus(service.url);
      expect(shadow).toMatchObject({ loaded: true, version: "strict.2", error: { code: breakage.code } });
      expect(shadow.error!.message).toMatch(breakage.message);
      expect(await reader.gauge("countersign.shadow.loaded")).toBe(1);
      expect((await reader.counter("countersign.shadow.load_failures", { reason: breakage.code })) - failuresBefore).toBe(2);
    });
  });
});

describe("countersign serve with a shadow candidate whose own tests fail", () => {
  let tdb: TestDatabase;
  let serve: ServiceProcess | undefined;
  afterAll(async () => {
    if (serve && serve.child.exitCode === null && serve.child.signalCode === null) serve.child.kill("SIGKILL");
    await tdb?.drop();
  });

  it("serves, and SIGHUP after the fix turns the shadow on; SIGTERM still exits 0", async () => {
    tdb = await createTestDatabase();
    const shadowDir = brokenCandidate(BREAKAGES[0]!);
    serve = await startServiceProcess({
      DATABASE_URL: tdb.url,
      COUNTERSIGN_POLICIES: writeBundle(policy("live.1", "1000")),
      COUNTERSIGN_SHADOW_POLICIES: shadowDir,
      COUNTERSIGN_POLICY_RELOAD_INTERVAL: "1h",
    });
    const cosigner = new CosignerSimulator({ webhookUrl: `${serve.url}/v1/cosigner/webhook` });
    expect((await cosigner.deliver(assetTransfer({ amount: "700", asset: ETH, source: `${VAULT}/wallets/shadowserve` }))).verdict).toBe("signed");
    expect(await shadowStatus(serve.url)).toMatchObject({ loaded: false, error: { code: "tests_failed" } });
    expect(serve.stdout.filter((l) => l.includes(OFF_LINE))).toHaveLength(1);

    BREAKAGES[0]!.fix(shadowDir);
    serve.child.kill("SIGHUP");
    await vi.waitFor(async () => expect(await shadowStatus(serve!.url)).toMatchObject({ loaded: true, version: "strict.2" }), { timeout: 20_000, interval: 100 });
    serve.child.kill("SIGTERM");
    expect((await serve.exited).code).toBe(0);
  });
});
