/**
 * Shadow evaluation: decisions under a live bundle with a stricter shadow bundle beside it. The
 * answers follow the live bundle; the policy guide's query returns exactly the disagreements; a shadow
 * that throws changes nothing but its own `shadow_error`.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notConfiguredView } from "../../../src/core/addressbook/types.js";
import { decide } from "../../../src/decision/decide.js";
import type { DecisionDeps } from "../../../src/decision/deps.js";
import { silentLogger } from "../../../src/log.js";
import type { PolicyBundle } from "../../../src/core/policy/types.js";
import { parseTransaction } from "../../../src/core/transaction/parse.js";
import { CosignerSimulator } from "../../support/cosigner.js";
import { sqlBlock } from "../../support/docs.js";
import { assetTransfer, ETH, transactionName, VAULT } from "../../support/bodies.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService, writeBundle } from "../../support/service.js";

const policy = (version: string, limit: string) => `
version: "${version}"
default: deny
windows:
  - {name: daily_out, duration: 24h, groupBy: [sourceWallet, asset], measure: amount}
rules:
  - id: single-limit
    decision: deny
    when: {">": [{"var": "transfer.amount"}, "${limit}"]}
  - id: daily-limit
    decision: deny
    when: {">": [{"var": "velocity.daily_out.amountAfter"}, "${limit}0"]}
  - id: internal
    decision: allow
    when: {"var": "transfer.destination.internal"}
`;

const DISAGREEMENTS = sqlBlock("-- Where the shadow candidate disagrees");

describe("shadow evaluation", () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    service = await startTestService({
      database: tdb.handle,
      policiesDir: writeBundle(policy("live.1", "1000")),
      env: { COUNTERSIGN_SHADOW_POLICIES: writeBundle(policy("strict.1", "500")) },
    });
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
  });

  it("answers follow the live bundle; each row records the shadow's verdict; the policy guide's query returns exactly the disagreements", async () => {
    const cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
    const amounts = ["100", "600", "900", "1200", "50", "700", "499", "501"];
    const bodies = amounts.map((amount, i) => assetTransfer({ amount, asset: ETH, source: `vaults/5c3f1a2b9d7e/wallets/shadow${i}` }));
    const deliveries = [];
    for (const b of bodies) deliveries.push(await cosigner.deliver(b));
    expect(deliveries.map((d) => d.verdict)).toEqual(amounts.map((a) => (Number(a) > 1000 ? "canceled" : "signed")));
    expect(deliveries.every((d) => (d.body as { policyVersion: string }).policyVersion === "live.1")).toBe(true);
    await cosigner.deliver(bodies[1]!); // a repeat: not a fresh decision, no second disagreement

    const rows = await tdb.handle.db.selectFrom("decisions").selectAll().where("replayed", "=", false).orderBy("seq").execute();
    expect(rows.map((r) => [r.decision, r.shadow_decision, r.shadow_policy_version])).toEqual(
      amounts.map((a) => [Number(a) > 1000 ? "deny" : "allow", Number(a) > 500 ? "deny" : "allow", "strict.1"]),
    );
    expect(rows[1]!.shadow_matched_rules).toContainEqual({ rule: "single-limit", decision: "deny", transfer: 0 });
    expect(rows.every((r) => r.shadow_policy_digest === service.shadow!.current()!.digest && r.shadow_error === null)).toBe(true);

    const { rows: found } = await sql.raw<{ transaction_name: string; decision: string; shadow_decision: string }>(DISAGREEMENTS).execute(tdb.handle.db);
    const expected = bodies.filter((_, i) => Number(amounts[i]) > 500 && Number(amounts[i]) <= 1000).map((b) => b.name);
    expect(found.map((r) => r.transaction_name).sort()).toEqual([...expected].sort());
    expect(found.every((r) => r.decision === "allow" && r.shadow_decision === "deny")).toBe(true);

    const status = (await (await fetch(`${service.url}/v1/policy`)).json()) as { version: string; shadow: { version: string } };
    expect(status).toMatchObject({ version: "live.1", shadow: { version: "strict.1" } });
  });

  it("a shadow bundle that throws changes nothing: same answer, same row, the failure recorded", async () => {
    const live = service.policy.current();
    const throwing = {
      ...live,
      version: "broken.1",
      get rules(): PolicyBundle["rules"] {
        throw new Error("shadow rules exploded");
      },
    };
    const deps = (shadow: DecisionDeps["shadow"]): DecisionDeps => ({
      db: tdb.handle.db,
      policy: { current: () => live },
      addressBook: { viewFor: async (vault) => notConfiguredView(vault), staleReason: () => null },
      clock: () => new Date(),
      logger: silentLogger,
      ...(shadow ? { shadow } : {}),
    });
    const outcomes = [];
    for (const shadow of [
      undefined,
      { current: () => throwing },
      {
        current: (): PolicyBundle => {
          throw new Error("no bundle");
        },
      },
    ]) {
      const parsed = parseTransaction(assetTransfer({ amount: "700", asset: ETH, source: `vaults/5c3f1a2b9d7e/wallets/throwing${outcomes.length}` }));
      if (!parsed.ok) throw new Error("bad body");
      const result = await decide(deps(shadow), parsed.value, `req-${outcomes.length}`);
      expect(result.kind).toBe("decided");
      if (result.kind !== "decided") return;
      const row = await tdb.handle.db.selectFrom("decisions").selectAll().where("id", "=", result.decisionId).executeTakeFirstOrThrow();
      outcomes.push({
        answer: [result.decision, result.reasons],
        row: [row.decision, row.matched_rules, row.reasons],
        shadow: [row.shadow_policy_version, row.shadow_decision, row.shadow_error],
      });
    }
    expect(outcomes[1]!.answer).toEqual(outcomes[0]!.answer);
    expect(outcomes[2]!.answer).toEqual(outcomes[0]!.answer);
    expect(outcomes[1]!.row).toEqual(outcomes[0]!.row);
    expect(outcomes[0]!.shadow).toEqual([null, null, null]);
    expect(outcomes[1]!.shadow).toEqual(["broken.1", null, "shadow evaluation failed: shadow rules exploded"]);
    expect(outcomes[2]!.shadow).toEqual([null, null, null]); // no candidate could be read: nothing to record
  });

  it("a shadow is held to COUNTERSIGN_MAX_WINDOW_GROUPS: over the cap it reads nothing inside the live transaction and is recorded as not evaluated", async () => {
    const live = service.policy.current();
    // The live bundle groups by source wallet (one group for the batch); the candidate by destination.
    const load = async (yaml: string) => {
      const { loadBundle } = await import("../../../src/policy/load.js");
      const loaded = await loadBundle(writeBundle(yaml));
      if (!loaded.ok) throw new Error(loaded.error.message);
      return loaded.value;
    };
    const perDestination = await load(`
version: "per-destination.1"
default: deny
windows:
  - {name: per_destination, duration: 1h, groupBy: [destination], measure: count}
rules:
  - id: transfers
    decision: allow
    when: {"==": [{"var": "tx.kind"}, "assetTransfer"]}
`);
    const batch = (count: number) => ({
      name: transactionName("shadowcap"),
      type: "TRANSACTION",
      subType: "BATCH_TRANSFER",
      state: "AWAITING_SIGNATURE",
      network: "networks/ethereum-mainnet",
      request: { sourceWallet: `${VAULT}/wallets/shadowcap` },
      transfers: Array.from({ length: count }, (_, i) => ({
        destinationAddress: { value: `0x${(i + 1).toString(16).padStart(40, "0")}` },
        amount: "1",
        asset: ETH,
      })),
    });
    const deps: DecisionDeps = {
      db: tdb.handle.db,
      policy: { current: () => live },
      addressBook: { viewFor: async (vault) => notConfiguredView(vault), staleReason: () => null },
      clock: () => new Date(),
      logger: silentLogger,
      maxWindowGroups: 4,
      shadow: { current: () => perDestination },
    };
    const rowOf = async (count: number) => {
      const parsed = parseTransaction(batch(count));
      if (!parsed.ok) throw new Error("bad body");
      const result = await decide(deps, parsed.value, `req-cap-${count}`);
      if (result.kind !== "decided") throw new Error(`not decided: ${result.kind}`);
      return tdb.handle.db.selectFrom("decisions").selectAll().where("id", "=", result.decisionId).executeTakeFirstOrThrow();
    };
    const atCap = await rowOf(4);
    expect([atCap.shadow_decision, atCap.shadow_error]).toEqual(["allow", null]);
    const overCap = await rowOf(5);
    // The live answer is the live bundle's (one group, within the cap)...
    expect(overCap.decision).toBe(atCap.decision);
    // ...and the candidate's five groups were neither read nor evaluated.
    expect([overCap.shadow_policy_version, overCap.shadow_decision, overCap.shadow_error]).toEqual([
      "per-destination.1",
      null,
      "shadow not evaluated: too many velocity window groups (5 > 4)",
    ]);
  });
});
