/**
 * What crosses the service for an asset's spellings, with a daily window per wallet and asset: two
 * spellings of one asset charge one window, and an asset the window could not place (an opaque id,
 * a network not written chain-net) is denied with its reason and charges nothing, by the webhook
 * and by POST /v1/evaluate alike. Which spellings name one asset are unit tables beside each
 * chain's code (src/chains/<family>/spellings.test.ts), the holds' beside them in src/decision/.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { assetTransfer, COLD_WALLET, HOT_WALLET } from "../../support/bodies.js";
import { serviceWithPolicy } from "../../support/service.js";

/** USDT's contract on Tron, in base58 and as `41` and its 20 bytes. */
const USDT = "assets/trc20.tron-mainnet.TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const USDT_HEX = "assets/trc20.tron-mainnet.41a614f803b6fd780986a42c78ec9c7f77e6ded13c";
const OPAQUE = "assets/e72ff35a5b15";
const ADMIN_TOKEN = "admin-token-for-asset-spellings";

const POLICY = `
version: "asset-spellings.1"
default: deny
windows:
  - {name: daily_out, duration: 24h, groupBy: [sourceWallet, asset], measure: amount}
rules:
  - id: usdt-daily-limit
    decision: deny
    when:
      and:
        - {"in": [{"var": "transfer.asset"}, ["${USDT}"]]}
        - {">": [{"var": "velocity.daily_out.amountAfter"}, "5000"]}
  - id: internal
    decision: allow
    when: {"var": "transfer.destination.internal"}
`;

describe("a daily window per wallet and asset", () => {
  const suite = serviceWithPolicy(POLICY, { clock: () => new Date("2026-11-21T12:00:00Z"), env: { COUNTERSIGN_ADMIN_TOKEN: ADMIN_TOKEN } });
  const send = (asset: string, source: string) => suite.cosigner.deliver(assetTransfer({ asset, amount: "1000", source, destination: COLD_WALLET }));
  const charged = async (source: string) => {
    const { rows } = await sql<{ sum: string; groups: number }>`select coalesce(sum(c.amount), 0)::text as sum, count(distinct c.group_hash)::int as groups from velocity_charges c
      join decisions d on d.id = c.decision_id where c.voided_at is null and d.transaction->'details'->'assetTransfer'->>'source' = ${source}`.execute(suite.tdb.handle.db);
    return rows[0];
  };

  it("charges a token's two spellings to one window: 5,000 a day, not 5,000 more in hex", async () => {
    const source = `${HOT_WALLET}usdt`;
    for (let i = 0; i < 4; i++) expect((await send(USDT, source)).verdict).toBe("signed");
    expect((await send(USDT_HEX, source)).verdict).toBe("signed");
    expect((await send(USDT_HEX, source)).verdict).toBe("canceled");
    expect((await send(USDT, source)).verdict).toBe("canceled");
    expect(await charged(source)).toEqual({ sum: "5000", groups: 1 });
  });

  it("denies an opaque asset id with the reason, and charges nothing", async () => {
    const source = `${HOT_WALLET}opaque`;
    const delivery = await send(OPAQUE, source);
    expect(delivery.verdict).toBe("canceled");
    expect(JSON.stringify(delivery.body)).toContain("a window groups by asset");
    expect(await charged(source)).toEqual({ sum: "0", groups: 0 });
  });

  it("is answered the same by POST /v1/evaluate, with what the policy alone would say", async () => {
    const body = assetTransfer({ asset: "assets/native.ethereum", amount: "1", source: `${HOT_WALLET}evaluate`, destination: COLD_WALLET });
    const response = await fetch(`${suite.service.url}/v1/evaluate`, { method: "POST", headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, body: JSON.stringify(body) });
    expect(await response.json()).toMatchObject({ decision: "deny", reasons: [expect.stringContaining("network ethereum is not a network id")], policyOutcome: "allow" });
  });
});
