import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CosignerSimulator } from "../../support/cosigner.js";
import { assetTransfer, transactionName } from "../../support/bodies.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { readExample, startTestService } from "../../support/service.js";

describe("co-signer webhook: the three outcomes on a Postgres server", () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let cosigner: CosignerSimulator;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    service = await startTestService({ database: tdb.handle });
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
  });

  const rowsFor = (name: string) => tdb.handle.db.selectFrom("decisions").selectAll().where("transaction_name", "=", name).orderBy("seq").execute();

  it("allows, and the committed row holds the answer, the snapshot and the facts", async () => {
    // Delivery metadata is kept in the snapshot and changes nothing (an unclassified field would be a payload).
    const body = { ...assetTransfer(), amlDetails: { screeningState: "READY" }, createTime: "2026-11-21T09:12:44.120Z" };
    const delivery = await cosigner.deliver(body);
    expect(delivery.verdict).toBe("signed");
    expect(delivery.body).toMatchObject({ signTransaction: true, policyVersion: service.policy.current().version });
    const decisionId = (delivery.body as { decisionId: string }).decisionId;
    const [row] = await rowsFor(body.name);
    expect(row).toMatchObject({
      id: decisionId,
      decision: "allow",
      sign_transaction: true,
      http_status: 200,
      replayed: false,
      vault: "vaults/5c3f1a2b9d7e",
      policy_version: service.policy.current().version,
      policy_digest: service.policy.current().digest,
    });
    expect(row!.transaction).toEqual(body);
    expect(row!.matched_rules).toEqual([{ rule: "trusted-destination", decision: "allow", transfer: 0 }]);
    expect((row!.facts as { transfer: { amount: string } }[])[0]!.transfer.amount).toBe("1.5");
    expect(row!.duration_ms).toBeGreaterThan(0);
  });

  it("denies with reasons, and the co-signer cancels", async () => {
    const body = readExample("api-shape-token-transfer.json");
    body.name = transactionName("deny");
    const delivery = await cosigner.deliver(body);
    expect(delivery.verdict).toBe("canceled");
    expect(delivery.body).toMatchObject({
      signTransaction: false,
      reasons: ["The destination is neither an approved address-book entry nor a wallet of this vault"],
    });
    const [row] = await rowsFor(body.name as string);
    expect(row).toMatchObject({ decision: "deny", sign_transaction: false, http_status: 200 });
  });

  it("defers with 503 and Retry-After, records it, and evaluates the next delivery afresh", async () => {
    const body = assetTransfer({ amount: "6" }); // above the ETH review threshold
    const first = await cosigner.deliver(body);
    expect(first.verdict).toBe("pending");
    expect(first.status).toBe(503);
    expect(first.headers?.get("retry-after")).toMatch(/^[0-9]+$/);
    expect(first.body).toMatchObject({ error: { code: "DEFERRED", requestId: expect.any(String) } });
    const second = await cosigner.deliver(body);
    expect(second.status).toBe(503);
    const rows = await rowsFor(body.name);
    expect(rows.map((r) => [r.decision, r.sign_transaction, r.http_status, r.replayed])).toEqual([
      ["defer", null, 503, false],
      ["defer", null, 503, false],
    ]);
  });

  it.each([
    ["api-shape-token-transfer.json", "canceled"],
    ["asset-transfer.json", "canceled"],
    ["evm-delegation.json", "canceled"],
    ["stellar-two-payments.json", "canceled"],
  ])("accepts %s as sent and wrapped in {transaction}", async (file, verdict) => {
    const plain = { ...readExample(file), name: transactionName("shape") };
    expect((await cosigner.deliver(plain)).verdict).toBe(verdict);
    const wrapped = { transaction: { ...readExample(file), name: transactionName("wrapped") }, event: "x" };
    const delivery = await cosigner.deliver(wrapped);
    expect(delivery.verdict).toBe(verdict);
    const [row] = await rowsFor(wrapped.transaction.name);
    expect(row!.transaction).toEqual(wrapped.transaction);
  });

  it("answers the health, readiness, policy and OpenAPI endpoints", async () => {
    expect(await (await fetch(`${service.url}/healthz`)).json()).toEqual({ status: "ok" });
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(200);
    const policy = (await (await fetch(`${service.url}/v1/policy`)).json()) as Record<string, unknown>;
    expect(policy).toMatchObject({ version: service.policy.current().version, digest: service.policy.current().digest, lastReloadError: null });
    const openapi = (await (await fetch(`${service.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(openapi.paths)).toContain("/v1/cosigner/webhook");
  });
});
