/**
 * A shadow candidate's disagreements in plain sight: the decision log line names the shadow's
 * outcome when it differs from the live one, a counter counts them by live and shadow outcome, and
 * `countersign explain --decision ID` shows what the candidate said.
 */
import { metrics } from "@opentelemetry/api";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../../src/log.js";
import { runCli } from "../../support/cli.js";
import { assetTransfer, ETH, VAULT } from "../../support/bodies.js";
import { CosignerSimulator } from "../../support/cosigner.js";
import { CollectingReader } from "../../support/metric-reader.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService, writeBundle } from "../../support/service.js";

const policy = (version: string, limit: string) => `
version: "${version}"
default: deny
rules:
  - id: single-limit
    decision: deny
    when: {">": [{"var": "transfer.amount"}, "${limit}"]}
  - id: internal
    decision: allow
    when: {"var": "transfer.destination.internal"}
`;

describe("shadow disagreements in the log, the metrics and explain --decision", () => {
  const reader = new CollectingReader();
  const lines: { msg: string; transaction?: string; decision?: string; shadowDecision?: string }[] = [];
  const livePolicies = writeBundle(policy("live.1", "1000"));
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;
  // Live allows up to 1000, the candidate up to 500: 700 is where they disagree.
  const bodies = Object.fromEntries(["100", "700", "1200"].map((amount) => [amount, assetTransfer({ amount, asset: ETH, source: `${VAULT}/wallets/disagree${amount}` })]));

  beforeAll(async () => {
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    tdb = await createTestDatabase();
    service = await startTestService({
      database: tdb.handle,
      policiesDir: livePolicies,
      env: { COUNTERSIGN_SHADOW_POLICIES: writeBundle(policy("strict.1", "500")) },
      logger: createLogger({ level: "info", write: (line) => lines.push(JSON.parse(line) as (typeof lines)[number]) }),
    });
    const cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
    for (const body of Object.values(bodies)) await cosigner.deliver(body);
    await cosigner.deliver(bodies["700"]); // a repeat: not evaluated again, by either bundle
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
    metrics.disable();
  });

  const idOf = async (amount: string) =>
    (await tdb.handle.db.selectFrom("decisions").select("id").where("transaction_name", "=", bodies[amount]!.name).where("replayed", "=", false).executeTakeFirstOrThrow()).id;

  it("the decision line names the shadow's outcome only where it differs from the live one", () => {
    const decisions = lines.filter((l) => l.msg === "decision").map((l) => [l.transaction, l.decision, l.shadowDecision]);
    expect(decisions).toEqual([
      [bodies["100"]!.name, "allow", undefined],
      [bodies["700"]!.name, "allow", "deny"],
      [bodies["1200"]!.name, "deny", undefined],
      [bodies["700"]!.name, "allow", undefined],
    ]);
  });

  it("countersign.shadow.disagreements counts them by live and shadow outcome", async () => {
    expect(await reader.counter("countersign.shadow.disagreements", { live: "allow", shadow: "deny" })).toBe(1);
    expect(await reader.counter("countersign.shadow.disagreements")).toBe(1);
  });

  it("explain --decision shows what the candidate said, and whether it differs", async () => {
    const differs = await runCli(["explain", "--decision", await idOf("700"), "--policies", livePolicies], { env: { DATABASE_URL: tdb.url } });
    expect(differs.code).toBe(0);
    expect(differs.stdout).toContain("shadow: deny (candidate strict.1; differs from the live allow)");
    expect(differs.stdout).toContain("  matched deny single-limit (transfer 0)");
    const agrees = await runCli(["explain", "--decision", await idOf("100"), "--policies", livePolicies], { env: { DATABASE_URL: tdb.url } });
    expect(agrees.stdout).toContain("shadow: allow (candidate strict.1; agrees with the live allow)");
    const json = await runCli(["explain", "--decision", await idOf("700"), "--policies", livePolicies, "--json"], { env: { DATABASE_URL: tdb.url } });
    expect(JSON.parse(json.stdout)).toMatchObject({
      decision: "allow",
      shadow: {
        policyVersion: "strict.1",
        decision: "deny",
        error: null,
        matchedRules: [
          { rule: "single-limit", decision: "deny", transfer: 0 },
          { rule: "internal", decision: "allow", transfer: 0 },
        ],
      },
    });
  });
});
