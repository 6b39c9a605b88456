/**
 * Explain with operand values, end to end: the decision row's trace, POST /v1/evaluate and
 * `countersign explain --decision ID` all show every rule and each comparison's operand values.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EvaluationTrace } from "../../../src/core/policy/types.js";
import { runCli } from "../../support/cli.js";
import { CosignerSimulator } from "../../support/cosigner.js";
import { assetTransfer, USDC } from "../../support/bodies.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { EXAMPLE_POLICIES, startTestService } from "../../support/service.js";

const ADMIN = "admin-token-for-explain";

describe("explain with operand values", () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let cosigner: CosignerSimulator;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    service = await startTestService({ database: tdb.handle, env: { COUNTERSIGN_ADMIN_TOKEN: ADMIN } });
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
  });

  const body = assetTransfer({ asset: USDC, amount: "60000" });

  it("each decision row keeps every rule per transfer with its comparisons' operand values", async () => {
    const delivery = await cosigner.deliver(body);
    expect(delivery.verdict).toBe("canceled");
    const row = await tdb.handle.db.selectFrom("decisions").select(["trace", "velocity_windows"]).where("transaction_name", "=", body.name).executeTakeFirstOrThrow();
    const [evaluation] = row.trace as EvaluationTrace[];
    const rules = evaluation!.rules!;
    expect(rules.map((r) => r.rule)).toEqual(service.policy.current().rules.map((r) => r.id));
    expect(rules.find((r) => r.rule === "usdc-transfer-limit")).toMatchObject({
      result: "matched",
      comparisons: [{ text: "transfer.amount = 60000 > 50000", result: true }],
    });
    expect(rules.find((r) => r.rule === "usdc-daily-limit")).toMatchObject({
      result: "not matched",
      comparisons: [{ text: "velocity.daily_out.amountAfter = 60000 > 100000", result: false }],
    });
    expect(rules.find((r) => r.rule === "trusted-destination")).toMatchObject({ result: "matched", comparisons: [] });
    expect(row.velocity_windows).toEqual(service.policy.current().windows);
  });

  it("POST /v1/evaluate returns the same trace, with the live window totals", async () => {
    const res = await fetch(`${service.url}/v1/evaluate`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${ADMIN}` },
      body: JSON.stringify(assetTransfer({ asset: USDC, amount: "9000" })),
    });
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { decision: string; evaluations: EvaluationTrace[] };
    expect(answer.decision).toBe("allow");
    const rules = answer.evaluations[0]!.rules!;
    expect(rules.find((r) => r.rule === "usdc-review-threshold")).toMatchObject({
      result: "not matched",
      comparisons: [{ text: "transfer.assetTotal = 9000 > 10000", result: false }],
    });
  });

  it("countersign explain --decision ID prints the recorded trace from the row", async () => {
    const row = await tdb.handle.db.selectFrom("decisions").select("id").where("transaction_name", "=", body.name).executeTakeFirstOrThrow();
    const result = await runCli(["explain", "--decision", row.id, "--policies", EXAMPLE_POLICIES], { env: { DATABASE_URL: tdb.url } });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`decision ${row.id}: ${body.name}`);
    expect(result.stdout).toContain(`decision: deny (policy ${service.policy.current().version})`);
    expect(result.stdout).toMatch(/^ {2}matched deny usdc-transfer-limit\n {6}transfer\.amount = 60000 > 50000 → true$/m);
    expect(result.stdout).toMatch(/^ {2}not matched deny usdc-daily-limit\n {6}velocity\.daily_out\.amountAfter = 60000 > 100000 → false$/m);

    const missing = await runCli(["explain", "--decision", "00000000-0000-4000-8000-000000000000"], { env: { DATABASE_URL: tdb.url } });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain("no decision 00000000-0000-4000-8000-000000000000");
  });
});
