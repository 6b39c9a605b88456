/**
 * The service's spans and metrics, read the way an exporter would. The tracer and meter
 * providers are set up here, for this file only, and removed afterwards: nothing is loaded
 * globally under vitest, and without them @opentelemetry/api is a no-op.
 */
import { context, metrics, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { appendFileSync, cpSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { assetTransfer, HOT_WALLET, transactionName, USDC, VAULT } from "../support/bodies.js";
import { CosignerSimulator } from "../support/cosigner.js";
import { fakeData, startFakeCustodyApi, type FakeCustodyApi } from "../support/fake-custody-api.js";
import { CollectingReader } from "../support/metric-reader.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { createTestServiceAccount, writeTempPem } from "../support/service-account.js";
import { EXAMPLE_POLICIES, startTestService } from "../support/service.js";
import { scratchDir } from "../support/scratch.js";

const VAULT_ID = VAULT.slice("vaults/".length);
const T0 = new Date("2026-11-21T12:00:00Z");
const MAX_AGE_SECONDS = 900;

describe("telemetry: spans and metrics of the running service", () => {
  const spans = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
  const reader = new CollectingReader();
  let tdb: TestDatabase;
  let api: FakeCustodyApi;
  let removeKey: () => void;
  let policies: string;
  let now = T0;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let cosigner: CosignerSimulator;

  beforeAll(async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(tracerProvider);
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    tdb = await createTestDatabase();
    const account = createTestServiceAccount();
    api = await startFakeCustodyApi({ serviceAccountEmail: account.email, publicKey: account.publicKey });
    api.setAddressBook(VAULT_ID, []);
    api.setWallets(VAULT_ID, [
      fakeData.wallet(VAULT_ID, HOT_WALLET.split("/").at(-1)!, [{ id: "a0", address: `0x${"a0".repeat(20)}`, network: "networks/ethereum-mainnet" }]),
      fakeData.wallet(VAULT_ID, "cold0001", [{ id: "a0", address: `0x${"c0".repeat(20)}`, network: "networks/ethereum-mainnet" }]),
    ]);
    const key = writeTempPem(account.privateKeyPem);
    removeKey = key.remove;
    policies = scratchDir("telemetry-policies");
    cpSync(EXAMPLE_POLICIES, policies, { recursive: true });
    service = await startTestService({
      database: tdb.handle,
      policiesDir: policies,
      clock: () => now,
      env: {
        COUNTERSIGN_API_URL: api.baseUrl,
        COUNTERSIGN_SERVICE_ACCOUNT_EMAIL: account.email,
        COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE: key.path,
        COUNTERSIGN_VAULTS: VAULT_ID,
        COUNTERSIGN_ADDRESS_BOOK_REFRESH: "1h",
        COUNTERSIGN_ADDRESS_BOOK_MAX_AGE: `${MAX_AGE_SECONDS}s`,
      },
    });
    expect((await service.background.sync!.syncAll()).map((r) => r.ok)).toEqual([true]);
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook`, platform: api });
  });

  afterAll(async () => {
    await service?.stop();
    await api?.close();
    await tdb?.drop();
    removeKey?.();
    trace.disable();
    context.disable();
    metrics.disable();
    await tracerProvider.shutdown();
  });

  beforeEach(() => {
    now = T0;
    spans.reset();
  });

  const named = (name: string) => spans.getFinishedSpans().filter((s) => s.name === name);
  const childrenOf = (parent: ReadableSpan) => spans.getFinishedSpans().filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);

  it("makes one decision span with its attributes, and children for facts, evaluation and the audit write", async () => {
    const body = assetTransfer();
    const delivery = await cosigner.deliver(body);
    expect(delivery.verdict).toBe("signed");

    const [decision, ...more] = named("countersign.decision");
    expect(more).toEqual([]);
    const [row] = await tdb.handle.db.selectFrom("decisions").selectAll().where("transaction_name", "=", body.name).execute();
    expect(decision!.attributes).toMatchObject({
      "countersign.transaction.name": body.name,
      "countersign.vault": VAULT,
      "countersign.decision": "allow",
      "countersign.decision.id": row!.id,
      "countersign.decision.replayed": false,
      "countersign.policy.version": row!.policy_version,
      "countersign.policy.digest": row!.policy_digest,
      "countersign.rules.matched": ["trusted-destination"],
      "countersign.request_id": delivery.headers!.get("x-request-id"),
    });
    expect(decision!.attributes).not.toHaveProperty("countersign.defer.cause");
    expect(
      childrenOf(decision!)
        .map((s) => s.name)
        .sort(),
    ).toEqual(["countersign.audit.write", "countersign.evaluate", "countersign.facts.address_book", "countersign.facts.prices", "countersign.facts.velocity"]);
    for (const child of childrenOf(decision!)) expect(child.spanContext().traceId).toBe(decision!.spanContext().traceId);
  });

  it("names the rule and the reason on a deferred decision's span", async () => {
    const delivery = await cosigner.deliver(assetTransfer({ amount: "6" }));
    expect(delivery.status).toBe(503);
    const [decision] = named("countersign.decision");
    expect(decision!.attributes).toMatchObject({
      "countersign.decision": "defer",
      "countersign.rules.matched": ["eth-review-threshold", "trusted-destination"],
      "countersign.defer.cause": "policy_rule",
      "countersign.defer.reason": expect.stringMatching(/ETH transfers above 5 wait for review/),
    });
  });

  it("moves the decision counter and the latency histogram, and counts defers by reason", async () => {
    const before = {
      allowed: await reader.counter("countersign.decisions", { outcome: "allow", replayed: false }),
      latency: await reader.histogram("countersign.decision.duration", { outcome: "allow" }),
      byRule: await reader.counter("countersign.defers", { reason: "policy_rule", rule: "eth-review-threshold" }),
      stale: await reader.counter("countersign.defers", { reason: "address_book_stale" }),
    };
    await cosigner.deliver(assetTransfer());
    await cosigner.deliver(assetTransfer());
    await cosigner.deliver(assetTransfer({ amount: "7" }));
    now = new Date(T0.getTime() + (MAX_AGE_SECONDS + 60) * 1000);
    expect((await cosigner.deliver(assetTransfer())).status).toBe(503);

    expect(await reader.counter("countersign.decisions", { outcome: "allow", replayed: false })).toBe(before.allowed + 2);
    const latency = await reader.histogram("countersign.decision.duration", { outcome: "allow" });
    expect(latency.count).toBe(before.latency.count + 2);
    expect(latency.sum).toBeGreaterThan(before.latency.sum);
    expect(await reader.counter("countersign.defers", { reason: "policy_rule", rule: "eth-review-threshold" })).toBe(before.byRule + 1);
    expect(await reader.counter("countersign.defers", { reason: "address_book_stale" })).toBe(before.stale + 1);
    const [stale] = named("countersign.decision").slice(-1);
    expect(stale!.attributes["countersign.defer.cause"]).toBe("address_book_stale");
  });

  it("counts token-amount refusals (400) as refused, and unknown token decimals as defers of their own cause", async () => {
    api.setAsset({ name: USDC, decimals: 6 });
    const usdc = (amount: string, rawAmount: string, asset = USDC) => ({
      name: transactionName("tel"),
      type: "TRANSACTION",
      subType: "TOKEN_TRANSFER",
      network: "networks/ethereum-mainnet",
      request: { sourceWallet: HOT_WALLET },
      transfers: [{ sourceAddress: { value: `0x${"a0".repeat(20)}` }, destinationAddress: { value: `0x${"c0".repeat(20)}` }, amount, rawAmount, asset }],
    });
    const before = {
      refused: await reader.counter("countersign.decisions", { outcome: "refused", replayed: false }),
      unknown: await reader.counter("countersign.defers", { reason: "asset_decimals_unknown" }),
    };
    expect((await cosigner.deliver(usdc("5", "5000000000000000000"))).status).toBe(400);
    const [refused] = named("countersign.decision");
    expect(refused!.attributes).toMatchObject({ "countersign.decision": "refused", "countersign.error.code": "INVALID_TRANSACTION" });
    expect(childrenOf(refused!).map((s) => s.name)).toContain("countersign.facts.asset_decimals");

    spans.reset();
    const unknownAsset = "assets/erc20.ethereum-mainnet.0x3333333333333333333333333333333333333333";
    expect((await cosigner.deliver(usdc("5", "5000000", unknownAsset))).status).toBe(503);
    const [deferred] = named("countersign.decision");
    expect(deferred!.attributes).toMatchObject({
      "countersign.decision": "defer",
      "countersign.defer.cause": "asset_decimals_unknown",
      "countersign.defer.reason": expect.stringMatching(/the decimals of assets\/erc20\.ethereum-mainnet\.0x3333.* are unknown \(custody API: not found\)/),
    });
    expect(await reader.counter("countersign.decisions", { outcome: "refused", replayed: false })).toBe(before.refused + 1);
    expect(await reader.counter("countersign.defers", { reason: "asset_decimals_unknown" })).toBe(before.unknown + 1);
  });

  it("reports each vault's address-book age", async () => {
    now = new Date(T0.getTime() + 120_000);
    expect(await reader.gauge("countersign.address_book.age", { vault: VAULT })).toBe(120);
  });

  it("counts each vault's syncs by result: ok, or the failure's code", async () => {
    const ok = { vault: VAULT, result: "ok" };
    const notAList = { vault: VAULT, result: "NOT_A_LIST" };
    const before = { ok: await reader.counter("countersign.address_book.syncs", ok), notAList: await reader.counter("countersign.address_book.syncs", notAList) };
    expect(before.ok).toBeGreaterThan(0);
    await service.background.sync!.syncAll();
    api.answerWith(`/v2/${VAULT}/addressBookEntries`, { code: 8, message: "Resource has been exhausted", details: [] });
    try {
      await service.background.sync!.syncAll();
    } finally {
      api.answerWith(`/v2/${VAULT}/addressBookEntries`, undefined);
    }
    expect(await reader.counter("countersign.address_book.syncs", ok)).toBe(before.ok + 1);
    expect(await reader.counter("countersign.address_book.syncs", notAList)).toBe(before.notAList + 1);
  });

  it("counts policy reloads that took effect and reloads that were refused", async () => {
    const applied = { result: "applied" };
    const invalid = { result: "refused", reason: "invalid" };
    const before = { applied: await reader.counter("countersign.policy.reloads", applied), invalid: await reader.counter("countersign.policy.reloads", invalid) };
    appendFileSync(path.join(policies, "policy.yaml"), "# reviewed\n");
    expect(await service.policy.reload()).toBe(true);
    writeFileSync(path.join(policies, "policy.yaml"), "version: [\n");
    expect(await service.policy.reload()).toBe(false);
    expect(await reader.counter("countersign.policy.reloads", applied)).toBe(before.applied + 1);
    expect(await reader.counter("countersign.policy.reloads", invalid)).toBe(before.invalid + 1);
  });
});
