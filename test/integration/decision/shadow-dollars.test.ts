/**
 * Moving an asset limit to a dollar limit (docs/policies.md "Limits in dollars"): while the shadow
 * candidate reads dollars, the live bundle's decisions look prices up, record them and charge
 * dollars, so the candidate's dollar window has its history once promoted. The live answer does
 * not wait on prices it does not read: with the platform's prices unknown, it decides as before.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notConfiguredView } from "../../../src/core/addressbook/types.js";
import { createAssetPrices } from "../../../src/assets/prices.js";
import { decide } from "../../../src/decision/decide.js";
import type { DecisionDeps } from "../../../src/decision/deps.js";
import { silentLogger } from "../../../src/log.js";
import { loadBundle } from "../../../src/policy/load.js";
import type { PolicyBundle } from "../../../src/core/policy/types.js";
import { parseTransaction } from "../../../src/core/transaction/parse.js";
import { ETH, VAULT, assetTransfer } from "../../support/bodies.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { writeBundle } from "../../support/service.js";

const LIVE = `
version: "per-asset.1"
default: deny
windows:
  - {name: daily_out, duration: 24h, groupBy: [sourceWallet, asset], measure: amount}
rules:
  - id: daily-limit
    decision: deny
    when: {">": [{"var": "velocity.daily_out.amountAfter"}, "100"]}
  - id: internal
    decision: allow
    when: {"var": "transfer.destination.internal"}
`;
const CANDIDATE = LIVE.replace("per-asset.1", "in-dollars.1")
  .replace("{name: daily_out, duration: 24h, groupBy: [sourceWallet, asset], measure: amount}", "{name: daily_usd, duration: 24h, groupBy: [sourceWallet, asset], measure: usd}")
  .replace("velocity.daily_out.amountAfter", "velocity.daily_usd.usdAfter")
  .replace('"100"', '"250000"');

const load = async (yaml: string): Promise<PolicyBundle> => {
  const loaded = await loadBundle(writeBundle(yaml));
  if (!loaded.ok) throw new Error(loaded.error.message);
  return loaded.value;
};

describe("a dollar candidate in the shadow", () => {
  let tdb: TestDatabase;
  let live: PolicyBundle;
  let candidate: PolicyBundle;
  beforeAll(async () => {
    tdb = await createTestDatabase();
    [live, candidate] = [await load(LIVE), await load(CANDIDATE)];
  });
  afterAll(async () => tdb?.drop());

  const deps = (pins: Record<string, string>): DecisionDeps => ({
    db: tdb.handle.db,
    policy: { current: () => live },
    shadow: { current: () => candidate },
    addressBook: { viewFor: async (vault) => notConfiguredView(vault), staleReason: () => null },
    assetPrices: createAssetPrices({ pins: new Map(Object.entries(pins)), maxAgeMs: 60_000 }),
    clock: () => new Date(),
    logger: silentLogger,
  });
  const decideOn = async (d: DecisionDeps, amount: string) => {
    const parsed = parseTransaction(assetTransfer({ amount, asset: ETH, source: `${VAULT}/wallets/shadowed` }));
    if (!parsed.ok) throw new Error("bad body");
    const result = await decide(d, parsed.value, "req");
    if (result.kind !== "decided") throw new Error(`not decided: ${result.kind}`);
    return tdb.handle.db
      .selectFrom("decisions")
      .select(["decision", "prices", "shadow_decision", "transaction_name"])
      .where("id", "=", result.decisionId)
      .executeTakeFirstOrThrow();
  };

  it("makes live decisions record prices and charge dollars, and evaluates the candidate on them", async () => {
    const row = await decideOn(deps({ [ETH]: "3000" }), "2");
    expect(row).toMatchObject({ decision: "allow", shadow_decision: "allow", prices: [expect.objectContaining({ asset: ETH, usd: "3000", source: "pin" })] });
    const charges = await tdb.handle.db.selectFrom("velocity_charges").select(["amount", "usd"]).where("transaction_name", "=", row.transaction_name).execute();
    expect(charges).toEqual([{ amount: "2", usd: "6000" }]);
  });

  it("decides as the live bundle says when no price is known: the shadow alone cannot hold a decision", async () => {
    const row = await decideOn(deps({}), "3");
    expect(row).toMatchObject({ decision: "allow", prices: null, shadow_decision: "deny" });
  });
});
