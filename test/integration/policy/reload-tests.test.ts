/**
 * Reload runs the bundle's own tests: a bundle with a failing case is refused at boot and at
 * SIGHUP (the bundle in force keeps serving; /v1/policy, the log and a metric say why, naming the
 * case), and a SIGHUP to a valid bundle while 500 webhook requests are in flight swaps it with no
 * request failing — every row carries the old or the new digest.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { metrics } from "@opentelemetry/api";
import { AggregationTemporality, MeterProvider, MetricReader } from "@opentelemetry/sdk-metrics";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CollectingReader as GaugeReader } from "../../support/metric-reader.js";
import { silentLogger } from "../../../src/log.js";
import { loadBundle } from "../../../src/policy/load.js";
import { BIN, runCli } from "../../support/cli.js";
import { assetTransfer, ETH } from "../../support/bodies.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService, writeBundle } from "../../support/service.js";

const policy = (version: string) => `
version: "${version}"
default: deny
rules:
  - id: internal
    decision: allow
    when: {"var": "transfer.destination.internal"}
`;

const FAILING_CASE = "an internal transfer is denied (wrong on purpose)";
const cases = (expect: "allow" | "deny") => `
cases:
  - name: an internal transfer is allowed
    transaction: {name: vaults/v1/transactions/t1, details: {assetTransfer: {asset: ${ETH}, amount: "1", source: vaults/v1/wallets/a, destination: vaults/v1/wallets/b}}}
    expect: allow
  - name: ${expect === "deny" ? FAILING_CASE : "the same, again"}
    transaction: {name: vaults/v1/transactions/t2, details: {assetTransfer: {asset: ${ETH}, amount: "2", source: vaults/v1/wallets/a, destination: vaults/v1/wallets/b}}}
    expect: ${expect}
`;

/**
 * Two files change; the 5 s poll may read between the writes. The order makes that in-between
 * bundle one whose own case fails (refused), so no third bundle is ever served.
 */
function publish(dir: string, version: string, expectSecond: "allow" | "deny"): void {
  const writeTests = () => writeFileSync(path.join(dir, "tests", "cases.yaml"), cases(expectSecond));
  const writePolicy = () => writeFileSync(path.join(dir, "policy.yaml"), policy(version));
  if (expectSecond === "deny") {
    writeTests();
    writePolicy();
  } else {
    writePolicy();
    writeTests();
  }
}

async function digestOf(version: string, expectSecond: "allow" | "deny"): Promise<string> {
  const loaded = await loadBundle(writeBundle(policy(version), { "cases.yaml": cases(expectSecond) }));
  if (!loaded.ok) throw loaded.error;
  return loaded.value.digest;
}

interface PolicyStatus {
  version: string;
  digest: string;
  lastReloadAt: string | null;
  lastReloadError: string | null;
  lastReloadFailedCases: { file: string; name: string; failures: string[] }[];
}

/** `countersign serve` in a child process, so SIGHUP is a real signal. */
class ServeProcess {
  private child: ChildProcess | undefined;
  output = "";
  url = "";

  async start(env: Record<string, string>): Promise<void> {
    const child = spawn(process.execPath, [BIN, "serve"], {
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", COUNTERSIGN_PORT: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    // Serving once it says so: read on each chunk of its output, failed when it exits first.
    this.url = await new Promise<string>((resolve, reject) => {
      const read = (d: Buffer) => {
        this.output += d.toString();
        const url = this.output.match(/"url":"(http:\/\/[^"]+)"/);
        if (this.output.includes('"msg":"countersign serving"') && url) resolve(url[1]!);
      };
      child.stdout.on("data", read);
      child.stderr.on("data", read);
      child.once("exit", () => reject(new Error(`serve exited: ${this.output}`)));
    });
  }

  sighup(): void {
    this.child!.kill("SIGHUP");
  }

  async status(): Promise<PolicyStatus> {
    return (await (await fetch(`${this.url}/v1/policy`)).json()) as PolicyStatus;
  }

  /** Waits until a reload (the SIGHUP's) has produced the state looked for. */
  until(done: (s: PolicyStatus) => boolean): Promise<PolicyStatus> {
    return vi.waitFor(
      async () => {
        const status = await this.status();
        if (!done(status)) throw new Error(`no reload happened: ${JSON.stringify(status)}`);
        return status;
      },
      { timeout: 30_000, interval: 100 },
    );
  }

  /** Waits until the process has printed `text`: a log line may reach the pipe after the state it reports. */
  async printed(text: string): Promise<string> {
    await vi.waitFor(() => expect(this.output).toContain(text), { timeout: 30_000, interval: 50 });
    return this.output;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once("exit", r));
    child.kill("SIGTERM");
    await exited;
  }
}

describe("reload runs the bundle's own tests", () => {
  let tdb: TestDatabase;
  const serve = new ServeProcess();
  const dir = writeBundle(policy("v1"), { "cases.yaml": cases("allow") });

  beforeAll(async () => {
    tdb = await createTestDatabase();
    // Only SIGHUP reloads here. publish() writes policy.yaml and tests/ one after the other, and on a
    // loaded machine the file poll (5 s) could read the bundle between the two: a third bundle,
    // neither the old nor the new, which a deployment never sees (its swap is one symlink).
    await serve.start({ DATABASE_URL: tdb.url, COUNTERSIGN_POLICIES: dir, COUNTERSIGN_DECISION_TIMEOUT: "60s", COUNTERSIGN_POLICY_RELOAD_INTERVAL: "24d" });
  }, 90_000);
  afterAll(async () => {
    await serve.stop();
    await tdb?.drop();
  });

  it("refuses at boot a bundle with a failing case, naming it", async () => {
    const failing = writeBundle(policy("v2"), { "cases.yaml": cases("deny") });
    const result = await runCli(["serve"], { env: { COUNTERSIGN_POLICIES: failing, COUNTERSIGN_PORT: "0", DATABASE_URL: tdb.url }, timeoutMs: 60_000 });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`tests/cases.yaml: "${FAILING_CASE}": expected deny, got allow`);
  });

  it("refuses it at SIGHUP: the old bundle keeps serving and /v1/policy names the failing case", async () => {
    const before = await serve.status();
    expect(before).toMatchObject({ version: "v1", lastReloadError: null });
    publish(dir, "v2", "deny");
    serve.sighup();
    const after = await serve.until((s) => s.lastReloadError !== null);
    expect(after).toMatchObject({ version: "v1", digest: before.digest });
    expect(after.lastReloadError).toContain(FAILING_CASE);
    expect(after.lastReloadFailedCases).toEqual([{ file: "tests/cases.yaml", name: FAILING_CASE, failures: [expect.stringMatching(/^expected deny, got allow/)] }]);
    const output = await serve.printed(`"msg":"policy reload refused; keeping the bundle in force"`);
    expect(output).toMatch(new RegExp(`"msg":"policy reload refused; keeping the bundle in force"`));
    expect(output).toContain(`"reason":"tests_failed"`);

    const res = await fetch(`${serve.url}/v1/cosigner/webhook`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(assetTransfer()) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ signTransaction: true, policyVersion: "v1" });
  });

  it("swaps to a valid bundle on SIGHUP while 500 requests are in flight: none fails, every row has the old or the new digest", async () => {
    const oldDigest = (await serve.status()).digest;
    const newDigest = await digestOf("v3", "allow");
    // 500 deliveries in flight from the first moment until the swap is seen, each answered one
    // replaced by a new one; then one more from each, begun after the swap. (A fixed burst of 500
    // could all be answered before the reload finished, and then prove nothing about the swap.)
    const names: string[] = [];
    const statuses: number[] = [];
    let swapped: Promise<PolicyStatus> | undefined;
    let swapSeen = false;
    const deliver = async () => {
      const body = assetTransfer({ source: `vaults/5c3f1a2b9d7e/wallets/inflight${names.length}` });
      names.push(body.name);
      const res = await fetch(`${serve.url}/v1/cosigner/webhook`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      await res.arrayBuffer();
      statuses.push(res.status);
      if (statuses.length === 100) {
        publish(dir, "v3", "allow");
        serve.sighup();
        swapped = serve.until((st) => st.version === "v3").finally(() => (swapSeen = true));
      }
    };
    await Promise.all(
      Array.from({ length: 500 }, async () => {
        do await deliver();
        while (!swapSeen);
        await deliver();
      }),
    );
    expect(statuses.filter((st) => st !== 200)).toEqual([]);
    expect(await swapped).toMatchObject({ version: "v3", digest: newDigest, lastReloadError: null });
    const rows = await tdb.handle.db.selectFrom("decisions").select(["policy_digest"]).where("transaction_name", "in", names).execute();
    expect(rows).toHaveLength(names.length);
    const digests = new Set(rows.map((r) => r.policy_digest));
    expect([...digests].every((d) => d === oldDigest || d === newDigest)).toBe(true);
    expect(digests.has(oldDigest)).toBe(true);
    expect(digests.has(newDigest)).toBe(true);
  }, 120_000);
});

/** Collects on demand, as an exporter would. */
class CollectingReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
  async counter(name: string, attributes: Record<string, unknown>): Promise<number> {
    const { resourceMetrics } = await this.collect();
    let total = 0;
    for (const scope of resourceMetrics.scopeMetrics) {
      for (const metric of scope.metrics.filter((m) => m.descriptor.name === name)) {
        for (const point of metric.dataPoints) {
          if (Object.entries(attributes).every(([k, v]) => point.attributes[k] === v)) total += point.value as number;
        }
      }
    }
    return total;
  }
}

describe("the reload metric", () => {
  it("counts refused reloads with the reason, and applied ones", async () => {
    const reader = new CollectingReader();
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    const tdb = await createTestDatabase();
    const dir = writeBundle(policy("m1"), { "cases.yaml": cases("allow") });
    const service = await startTestService({ database: tdb.handle, policiesDir: dir, logger: silentLogger });
    try {
      publish(dir, "m2", "deny");
      expect(await service.policy.reload()).toBe(false);
      expect(await service.policy.reload()).toBe(false); // the same refused files: not re-tested, not re-counted
      writeFileSync(path.join(dir, "policy.yaml"), "version: [not a string\n");
      expect(await service.policy.reload()).toBe(false);
      publish(dir, "m3", "allow");
      expect(await service.policy.reload()).toBe(true);
      expect(await reader.counter("countersign.policy.reloads", { result: "refused", reason: "tests_failed" })).toBe(1);
      // The 5 s poll may also meet the invalid file (counted again: it is not tested, just refused).
      expect(await reader.counter("countersign.policy.reloads", { result: "refused", reason: "invalid" })).toBeGreaterThanOrEqual(1);
      expect(await reader.counter("countersign.policy.reloads", { result: "applied" })).toBe(1);
      expect(service.policy.status()).toMatchObject({ version: "m3", lastReloadError: null, lastReloadFailedCases: [] });
    } finally {
      await service.stop();
      await tdb.drop();
      metrics.disable();
    }
  });
});

/**
 * Pods take a merged bundle one by one (ConfigMap sync, git-sync, then the reload poll), and one
 * whose git-sync is stuck keeps the old bundle for good while answering the co-signer's polls as
 * readily as the rest. Each pod's /v1/policy said what it ran, but through the Service it reaches
 * any one pod: nothing told an operator that pods disagree. Each
 * pod now reports its bundle in force as a gauge, so a scrape of every pod shows the disagreement.
 */
describe("the bundle-in-force metric", () => {
  it("reports the version and digest in force, and the one it replaced as no longer in force", async () => {
    const reader = new GaugeReader();
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    const tdb = await createTestDatabase();
    const dir = writeBundle(policy("b1"), { "cases.yaml": cases("allow") });
    const service = await startTestService({ database: tdb.handle, policiesDir: dir, logger: silentLogger });
    try {
      const first = service.policy.status();
      expect(await reader.gauge("countersign.policy.in_force", { version: "b1", digest: first.digest })).toBe(1);
      publish(dir, "b2", "allow");
      expect(await service.policy.reload()).toBe(true);
      const second = service.policy.status();
      expect(await reader.gauge("countersign.policy.in_force", { version: "b2", digest: second.digest })).toBe(1);
      expect(await reader.gauge("countersign.policy.in_force", { version: "b1", digest: first.digest })).toBe(0);
    } finally {
      await service.stop();
      await tdb.drop();
      metrics.disable();
    }
  });
});
