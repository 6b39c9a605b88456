/**
 * The platform check (docs/interface.md section 11), end to end: the real service, the co-signer
 * simulator, and the simulated custody API over real HTTP with its JWT check. The co-signer delivers
 * what the platform holds; a "token holder" posts with the webhook token whatever it likes, as
 * anyone who read the token from a co-signer's configuration or a proxy's log could.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { sealRound } from "../../src/audit/sealer.js";
import { createLogger } from "../../src/log.js";
import { verifyChain } from "../../src/audit/verify.js";
import { HOT_WALLET, VAULT, transactionName } from "../support/bodies.js";
import { CosignerSimulator, type Delivery } from "../support/cosigner.js";
import { fakeData } from "../support/fake-custody-api.js";
import { serviceWithSyncedWallets, type SyncedService } from "../support/synced-custody.js";

const ETH = "assets/native.ethereum-mainnet";
const HOT = "0x8ba1f109551bD432803012645Ac136ddd64DBA72";
const EXCHANGE = "0x1111111111111111111111111111111111111111";
const ATTACKER = "0x2222222222222222222222222222222222222222";
const VAULT_ID = VAULT.slice("vaults/".length);
const TRANSACTION_READ = /^\/v2\/vaults\/[^/]+\/transactions\/[^/]+$/;

const POLICY = `
version: "platform-check.1"
default: deny
windows:
  - {name: daily, duration: 24h, groupBy: [sourceWallet, asset], measure: amount}
rules:
  - id: transfers-only
    decision: deny
    reason: only plain transfers
    when: {"!": {"===": [{"var": "tx.kind"}, "assetTransfer"]}}
  - id: daily-limit
    decision: deny
    reason: daily limit
    when: {">": [{"var": "velocity.daily.amountAfter"}, "100"]}
  - id: eth
    decision: allow
    when: {"===": [{"var": "transfer.asset"}, "${ETH}"]}
`;

/** An API-shape transfer of `amount` ETH from the hot wallet to `destination`. */
function transfer(name: string, amount = "1", destination = EXCHANGE, extra: Record<string, unknown> = {}) {
  return {
    name,
    type: "TRANSACTION",
    subType: "NATIVE_TRANSFER",
    state: "AWAITING_SIGNATURE",
    network: "networks/ethereum-mainnet",
    createTime: "2026-11-28T09:00:00Z",
    request: { initiator: "users/ops@treasury.example", sourceWallet: HOT_WALLET },
    transfers: [{ destinationAddress: { value: destination }, amount, asset: ETH }],
    ...extra,
  };
}

const walletOf = (wallet: string, address: string) => fakeData.wallet(VAULT_ID, wallet.split("/").at(-1)!, [{ id: "a0", address, network: "networks/ethereum-mainnet" }]);

/** Whoever holds the webhook token: posts without the platform holding what it posts. */
const tokenHolder = (suite: SyncedService) => new CosignerSimulator({ webhookUrl: `${suite.service.url}/v1/cosigner/webhook` });

const readsOf = (suite: SyncedService, name: string) => suite.custody.api.transactionReads().filter((r) => r.path === `/v2/${name}`).length;

async function rowsOf(suite: SyncedService, name: string) {
  const db = suite.tdb.handle.db;
  const decisions = await db.selectFrom("decisions").select(["decision"]).where("transaction_name", "=", name).execute();
  const charges = await db.selectFrom("velocity_charges").select(["id"]).where("transaction_name", "=", name).execute();
  const refusals = await db.selectFrom("delivery_refusals").selectAll().where("transaction_name", "=", name).orderBy("seq").execute();
  return { decisions, charges, refusals };
}

function expectRefused(delivery: Delivery, code: string): void {
  expect(delivery).toMatchObject({ verdict: "pending", status: 409, body: { error: { code, requestId: expect.any(String), details: { refusalId: expect.any(String) } } } });
}

describe("the platform check: deliveries are decided on the platform's copy", () => {
  const log: Record<string, unknown>[] = [];
  const logger = createLogger({ level: "warn", write: (line) => log.push(JSON.parse(line) as Record<string, unknown>) });
  const suite = serviceWithSyncedWallets(POLICY, VAULT_ID, [walletOf(HOT_WALLET, HOT)], { logger });

  it("signs a genuine delivery after one platform read", async () => {
    const name = transactionName("genuine");
    expect((await suite.cosigner.deliver(transfer(name))).verdict).toBe("signed");
    expect(readsOf(suite, name)).toBe(1);
    const read = suite.custody.api.transactionReads().find((r) => r.path === `/v2/${name}`)!;
    expect(read).toMatchObject({ status: 200, authorization: expect.stringMatching(/^Bearer ey/) });
  });

  it("says the check is on in /v1/policy and /readyz", async () => {
    const policy = (await (await fetch(`${suite.service.url}/v1/policy`)).json()) as Record<string, unknown>;
    const ready = (await (await fetch(`${suite.service.url}/readyz`)).json()) as Record<string, unknown>;
    expect(policy.verifyDeliveries).toEqual({ mode: "platform", circuit: "closed" });
    expect(ready.verifyDeliveries).toBe("platform");
  });

  it.each([
    ["a forged amount", (name: string) => transfer(name, "90")],
    ["a forged destination", (name: string) => transfer(name, "1", ATTACKER)],
    ["an added payload", (name: string) => transfer(name, "1", EXCHANGE, { tokenAllowances: [{ spenderAddress: { value: ATTACKER }, asset: ETH, amount: "1000" }] })],
  ])("refuses %s (409 DELIVERY_MISMATCH), decides and charges nothing, records both digests and bodies, then signs the genuine delivery", async (_what, forge) => {
    const name = transactionName("forged");
    const genuine = transfer(name);
    suite.custody.api.holdTransaction(genuine);
    const forged = forge(name);
    expectRefused(await tokenHolder(suite).deliver(forged), "DELIVERY_MISMATCH");

    const after = await rowsOf(suite, name);
    expect(after.decisions).toEqual([]);
    expect(after.charges).toEqual([]);
    expect(after.refusals).toHaveLength(1);
    const [refusal] = after.refusals;
    expect(refusal).toMatchObject({
      code: "DELIVERY_MISMATCH",
      vault: VAULT,
      delivered: forged,
      platform: { ...genuine, state: "AWAITING_SIGNATURE" },
      platform_state: "AWAITING_SIGNATURE",
    });
    expect(refusal!.delivered_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(refusal!.platform_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(refusal!.platform_digest).not.toBe(refusal!.delivered_digest);

    expect((await suite.cosigner.deliver(genuine)).verdict).toBe("signed");
    expect((await rowsOf(suite, name)).charges).toHaveLength(1);
  });

  it("counts a mismatch in countersign_delivery_refusals_total and logs at error level that the webhook token is in other hands, without the body", async () => {
    const name = transactionName("logged");
    expectRefused(await tokenHolder(suite).deliver(transfer(name, "31.4159265")), "DELIVERY_MISMATCH");
    const line = log.find((l) => l.transaction === name);
    expect(line).toMatchObject({ level: "error", code: "DELIVERY_MISMATCH", msg: expect.stringContaining("holds the webhook token") });
    expect(JSON.stringify(line)).not.toContain("31.4159265");
    const metrics = await (await fetch(`${suite.service.url}/metrics`)).text();
    expect(metrics).toMatch(/^countersign_delivery_refusals_total\{[^}]*code="DELIVERY_MISMATCH"[^}]*\} [1-9][0-9]*$/m);
  });

  it("refuses a name the platform does not have (409 DELIVERY_MISMATCH), recorded without a platform copy, then signs the co-signer's delivery of it", async () => {
    const name = transactionName("unknown");
    expectRefused(await tokenHolder(suite).deliver(transfer(name)), "DELIVERY_MISMATCH");
    const { decisions, refusals } = await rowsOf(suite, name);
    expect(decisions).toEqual([]);
    expect(refusals).toEqual([expect.objectContaining({ code: "DELIVERY_MISMATCH", platform: null, platform_digest: null, platform_state: null })]);
    expect((await suite.cosigner.deliver(transfer(name))).verdict).toBe("signed");
  });

  it("answers a repeat of a final decision from the record, without asking the platform", async () => {
    const name = transactionName("repeat");
    expect((await suite.cosigner.deliver(transfer(name))).verdict).toBe("signed");
    const again = await suite.cosigner.deliver(transfer(name));
    expect(again.body).toMatchObject({ signTransaction: true, replayOf: expect.any(String) });
    expect(readsOf(suite, name)).toBe(1);
  });

  it("does not count a differing state or timestamps as a mismatch, and records the platform's copy", async () => {
    const name = transactionName("metadata");
    suite.custody.api.holdTransaction(transfer(name));
    const delivered = transfer(name, "1", EXCHANGE, { state: "PENDING_OTHER_SIGNERS", createTime: "2026-11-28T10:30:00Z", expireTime: "2026-11-29T10:30:00Z" });
    expect((await tokenHolder(suite).deliver(delivered)).verdict).toBe("signed");
    const row = await suite.tdb.handle.db.selectFrom("decisions").select(["transaction"]).where("transaction_name", "=", name).executeTakeFirstOrThrow();
    expect(row.transaction).toMatchObject({ state: "AWAITING_SIGNATURE", createTime: "2026-11-28T09:00:00Z" });
    expect((await rowsOf(suite, name)).refusals).toEqual([]);
  });

  it("refuses a delivery whose platform copy was canceled (409 NOT_AWAITING_SIGNATURE), recorded the same way", async () => {
    const name = transactionName("canceled");
    suite.custody.api.holdTransaction(transfer(name), "CANCELED");
    expectRefused(await tokenHolder(suite).deliver(transfer(name)), "NOT_AWAITING_SIGNATURE");
    const { decisions, refusals } = await rowsOf(suite, name);
    expect(decisions).toEqual([]);
    expect(refusals).toEqual([expect.objectContaining({ code: "NOT_AWAITING_SIGNATURE", platform_state: "CANCELED" })]);
    expect(refusals[0]!.platform_digest).toBe(refusals[0]!.delivered_digest);
  });

  it("keeps the refusals in the hash chain, which audit verify checks, and shows them in transaction_timeline", async () => {
    const name = transactionName("chained");
    expectRefused(await tokenHolder(suite).deliver(transfer(name)), "DELIVERY_MISMATCH");
    const db = suite.tdb.handle.db;
    const [refusal] = (await rowsOf(suite, name)).refusals;
    await sealRound(db);
    const { rows: linked } = await sql<{ n: number }>`select count(*)::int as n from audit_chain where source = 'delivery_refusals' and row_key = ${refusal!.id}`.execute(db);
    expect(linked[0]!.n).toBe(1);
    expect(await verifyChain(db)).toMatchObject({ ok: true, breakCount: 0 });
    await expect(sql`delete from delivery_refusals where id = ${refusal!.id}`.execute(db)).rejects.toThrow();
    const { rows: timeline } = await sql<{
      kind: string;
      outcome: string;
      detail: string;
    }>`select kind, outcome, detail from transaction_timeline where transaction_name = ${name}`.execute(db);
    expect(timeline).toEqual([{ kind: "refusal", outcome: "DELIVERY_MISMATCH", detail: expect.stringContaining("platform has no such transaction") }]);
  });
});

describe("the platform check when the custody API fails: the delivery defers inside the deadline", () => {
  const suite = serviceWithSyncedWallets(POLICY, VAULT_ID, [walletOf(HOT_WALLET, HOT)], { env: { COUNTERSIGN_DECISION_TIMEOUT: "3s" } });

  /** Deferred by the check, which says so: the deadline striking first would say it could not decide. */
  function expectCheckDeferred(delivery: Delivery): void {
    expect(delivery).toMatchObject({
      verdict: "pending",
      status: 503,
      body: { error: { code: "DEFERRED", message: "platform check unavailable; the transaction stays pending" } },
    });
    expect(delivery.headers?.get("retry-after")).toMatch(/^[0-9]+$/);
  }

  it.each([
    ["500", 500],
    ["429", 429],
  ])("defers on %s, after retries, recording nothing; the next delivery is decided once the API answers", async (_status, status) => {
    const name = transactionName(`api${status}`);
    suite.custody.api.failNext(1_000, status, TRANSACTION_READ);
    try {
      expectCheckDeferred(await suite.cosigner.deliver(transfer(name)));
      expect(readsOf(suite, name)).toBeGreaterThan(1);
    } finally {
      suite.custody.api.failNext(0);
    }
    expect(await rowsOf(suite, name)).toMatchObject({ decisions: [], refusals: [] });
    expect((await suite.cosigner.deliver(transfer(name))).verdict).toBe("signed");
  });

  it("defers when the API does not answer", async () => {
    const name = transactionName("stalled");
    suite.custody.api.stallNext();
    try {
      expectCheckDeferred(await suite.cosigner.deliver(transfer(name)));
    } finally {
      suite.custody.api.stallNext(0);
    }
    expect(await rowsOf(suite, name)).toMatchObject({ decisions: [], refusals: [] });
    expect((await suite.cosigner.deliver(transfer(name))).verdict).toBe("signed");
  });

  // Last in this block: the circuit stays open for seconds after it.
  it("stops asking an API that failed five checks in a row: the next delivery defers without a read, and /v1/policy shows the circuit open", async () => {
    suite.custody.api.failNext(1_000, 500, TRANSACTION_READ);
    try {
      for (let i = 0; i < 5; i++) expectCheckDeferred(await suite.cosigner.deliver(transfer(transactionName("burst"))));
      const name = transactionName("unasked");
      expectCheckDeferred(await suite.cosigner.deliver(transfer(name)));
      expect(readsOf(suite, name)).toBe(0);
      const policy = (await (await fetch(`${suite.service.url}/v1/policy`)).json()) as Record<string, unknown>;
      expect(policy.verifyDeliveries).toEqual({ mode: "platform", circuit: "open" });
    } finally {
      suite.custody.api.failNext(0);
    }
  });
});

describe("COUNTERSIGN_VERIFY_DELIVERIES=off", () => {
  const suite = serviceWithSyncedWallets(POLICY, VAULT_ID, [walletOf(HOT_WALLET, HOT)], { env: { COUNTERSIGN_VERIFY_DELIVERIES: "off" } });

  it("decides on the body delivered, never asks the platform, and says off in /v1/policy and /readyz", async () => {
    const name = transactionName("off");
    expect((await tokenHolder(suite).deliver(transfer(name))).verdict).toBe("signed");
    expect(suite.custody.api.transactionReads()).toEqual([]);
    const policy = (await (await fetch(`${suite.service.url}/v1/policy`)).json()) as Record<string, unknown>;
    const ready = (await (await fetch(`${suite.service.url}/readyz`)).json()) as Record<string, unknown>;
    expect(policy.verifyDeliveries).toEqual({ mode: "off" });
    expect(ready.verifyDeliveries).toBe("off");
  });
});
