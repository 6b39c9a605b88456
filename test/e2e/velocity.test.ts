import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { CosignerSimulator } from "../support/cosigner.js";
import { assetTransfer, ETH, HOT_WALLET } from "../support/bodies.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { startTestService, writeBundle } from "../support/service.js";

const ADMIN_TOKEN = "admin-token-for-velocity-e2e";

const POLICY = `
version: "velocity-test.1"
default: deny
windows:
  - {name: daily_out, duration: 24h, groupBy: [sourceWallet, asset], measure: amount}
rules:
  - id: daily-limit
    decision: deny
    reason: At most 1,000 ETH a day from one wallet
    when: {">": [{"var": "velocity.daily_out.amountAfter"}, "1000"]}
  - id: internal
    decision: allow
    when: {"var": "transfer.destination.internal"}
`;

type Service = Awaited<ReturnType<typeof startTestService>>;

describe("velocity windows across two service instances on one Postgres server", () => {
  let tdb: TestDatabase;
  let instances: Service[];
  let clockMs = Date.parse("2026-11-21T12:00:00Z");
  const clock = () => new Date(clockMs);

  beforeAll(async () => {
    tdb = await createTestDatabase();
    const policiesDir = writeBundle(POLICY);
    // Two processes' worth of service: each has its own connection pool to the same database.
    // This suite is about exact totals under contention, not latency: 200 deliveries queued on one
    // group's lock can outlast the 5 s decision deadline on a loaded machine (they would defer).
    const env = { COUNTERSIGN_DECISION_TIMEOUT: "60s" };
    instances = [await startTestService({ databaseUrl: tdb.url, policiesDir, clock, env }), await startTestService({ databaseUrl: tdb.url, policiesDir, clock, env })];
  });
  afterAll(async () => {
    for (const s of instances ?? []) await s.stop();
    await tdb?.drop();
  });

  const liveChargeSum = async (): Promise<{ sum: string; count: string }> => {
    const r = await sql<{ sum: string; count: string }>`
      select coalesce(sum(amount), 0)::text as sum, count(*)::text as count
      from velocity_charges where voided_at is null`.execute(tdb.handle.db);
    return r.rows[0]!;
  };

  it("200 concurrent deliveries of 10 against a limit of 1,000: exactly 100 allowed, ledger sums to exactly 1,000", async () => {
    const cosigners = instances.map((s) => new CosignerSimulator({ webhookUrl: `${s.url}/v1/cosigner/webhook` }));
    const bodies = Array.from({ length: 200 }, () => assetTransfer({ amount: "10", asset: ETH, source: HOT_WALLET }));
    const deliveries = await Promise.all(bodies.map((b, i) => cosigners[i % 2]!.deliver(b)));

    expect(deliveries.every((d) => d.status === 200)).toBe(true);
    const allowed = deliveries.filter((d) => d.verdict === "signed");
    const denied = deliveries.filter((d) => d.verdict === "canceled");
    expect(allowed).toHaveLength(100);
    expect(denied).toHaveLength(100);
    for (const d of denied) expect((d.body as { reasons: string[] }).reasons).toEqual(["At most 1,000 ETH a day from one wallet"]);
    expect(await liveChargeSum()).toEqual({ sum: "1000", count: "100" });

    const rows = await tdb.handle.db.selectFrom("decisions").select(["decision", "matched_rules"]).where("decision", "=", "deny").execute();
    expect(rows).toHaveLength(100);
    for (const r of rows) expect((r.matched_rules as { rule: string }[]).map((m) => m.rule)).toContain("daily-limit");
  });

  it("charges a repeated delivery once", async () => {
    clockMs += 25 * 3600_000; // a fresh window
    const body = assetTransfer({ amount: "7", asset: ETH, source: `${HOT_WALLET}x` });
    const cosigner = new CosignerSimulator({ webhookUrl: `${instances[0]!.url}/v1/cosigner/webhook` });
    const results = await Promise.all(Array.from({ length: 10 }, () => cosigner.deliver(body)));
    expect(results.every((r) => r.verdict === "signed")).toBe(true);
    const charges = await tdb.handle.db.selectFrom("velocity_charges").select("amount").where("transaction_name", "=", body.name).execute();
    expect(charges).toEqual([{ amount: "7" }]);
  });

  it("loses nothing across a restart: the window totals before and after are equal", async () => {
    const evaluate = async (s: Service) => {
      const response = await fetch(`${s.url}/v1/evaluate`, {
        method: "POST",
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        body: JSON.stringify(assetTransfer({ amount: "1", asset: ETH, source: HOT_WALLET })),
      });
      return ((await response.json()) as { facts: { velocity: unknown }[] }).facts[0]!.velocity;
    };
    clockMs -= 25 * 3600_000; // back to the first test's window
    const policiesDir = instances[0]!.config.policiesDir;
    const env = { COUNTERSIGN_ADMIN_TOKEN: ADMIN_TOKEN };
    let s = await startTestService({ databaseUrl: tdb.url, policiesDir, clock, env });
    const before = await evaluate(s);
    expect(before).toEqual({ daily_out: { amount: "1000", count: 100, amountAfter: "1001", countAfter: 101 } });
    await s.stop();
    s = await startTestService({ databaseUrl: tdb.url, policiesDir, clock, env });
    expect(await evaluate(s)).toEqual(before);
    await s.stop();
  });
});
