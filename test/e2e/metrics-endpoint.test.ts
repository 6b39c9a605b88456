/**
 * `GET /metrics` on the service's own port, with no OTEL_* variable set (no SDK): Prometheus text
 * of the instruments the service records, names carrying their unit (`_seconds`) and counters
 * `_total`; and the optional COUNTERSIGN_METRICS_TOKEN.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CosignerSimulator } from "../support/cosigner.js";
import { assetTransfer } from "../support/bodies.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { startTestService } from "../support/service.js";

/** The value of the sample `name{labels}` whose labels include every one given, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const given = match[2] ?? "";
    if (Object.entries(labels).every(([k, v]) => given.includes(`${k}="${v}"`))) return Number(match[3]);
  }
  return undefined;
}

describe("GET /metrics on the service port", () => {
  let tdb: TestDatabase;
  let open: Awaited<ReturnType<typeof startTestService>>;
  let guarded: Awaited<ReturnType<typeof startTestService>>;
  const metricsToken = "metrics-token-for-the-scraper-0123456789";

  beforeAll(async () => {
    tdb = await createTestDatabase();
    open = await startTestService({ database: tdb.handle });
    guarded = await startTestService({ database: tdb.handle, env: { COUNTERSIGN_METRICS_TOKEN: metricsToken } });
  });
  afterAll(async () => {
    await guarded?.stop();
    await open?.stop();
    await tdb?.drop();
  });

  it("answers Prometheus text with the decisions counted and their latency in seconds", async () => {
    const cosigner = new CosignerSimulator({ webhookUrl: `${open.url}/v1/cosigner/webhook` });
    expect((await cosigner.deliver(assetTransfer())).verdict).toBe("signed");
    const res = await fetch(`${open.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toContain("# TYPE countersign_decisions_total counter");
    expect(sample(text, "countersign_decisions_total", { outcome: "allow", replayed: "false" })).toBe(1);
    expect(text).toContain("# TYPE countersign_decision_duration_seconds histogram");
    expect(sample(text, "countersign_decision_duration_seconds_count", { outcome: "allow" })).toBe(1);
    expect(sample(text, "countersign_decision_duration_seconds_bucket", { outcome: "allow", le: "+Inf" })).toBe(1);
    expect(text).toMatch(/^target_info\{[^}]*service_name="countersign"/m);
    // The gauge of the bundle in force is read at the scrape.
    expect(sample(text, "countersign_policy_in_force", { version: open.policy.status().version })).toBe(1);
  });

  it("asks for COUNTERSIGN_METRICS_TOKEN as a bearer token when it is set", async () => {
    const without = await fetch(`${guarded.url}/metrics`);
    expect(without.status).toBe(401);
    expect(without.headers.get("www-authenticate")).toBe('Bearer realm="countersign-metrics"');
    expect(((await without.json()) as { error: { code: string } }).error.code).toBe("UNAUTHORIZED");
    const wrong = await fetch(`${guarded.url}/metrics`, { headers: { authorization: "Bearer not-the-token" } });
    expect(wrong.status).toBe(401);
    const right = await fetch(`${guarded.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    expect(right.status).toBe(200);
    expect(await right.text()).toContain("countersign_decision_duration_seconds");
  });
});
