/**
 * One jetton, one window, however its master is spelt in the asset id: a TON account is the same
 * raw (`0:…`), bounceable (`EQ…`) or non-bounceable (`UQ…`), as the endpoints already compare it,
 * but the asset id's master was compared as written, so USDT named with `UQ…` missed a limit rule
 * naming `EQ…` and opened a daily window of its own (found by a review of velocity windows).
 * Against the real service.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { assetTransfer, COLD_WALLET, HOT_WALLET } from "../support/bodies.js";
import { serviceWithPolicy } from "../support/service.js";

// Tether's USD₮ master on TON, bounceable as the platform writes it, and the same account non-bounceable.
const BOUNCEABLE = "EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs";
const NON_BOUNCEABLE = "UQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_p0p";
const asset = (master: string) => `assets/jetton.ton-mainnet.${master}`;

const POLICY = `
version: "jetton-spellings.1"
default: deny
windows:
  - {name: daily_out, duration: 24h, groupBy: [sourceWallet, asset], measure: amount}
rules:
  - id: usdt-daily-limit
    decision: deny
    when:
      and:
        - {"in": [{"var": "transfer.asset"}, ["${asset(BOUNCEABLE)}"]]}
        - {">": [{"var": "velocity.daily_out.amountAfter"}, "5000"]}
  - id: internal
    decision: allow
    when: {"var": "transfer.destination.internal"}
`;

describe("a jetton's master spelt bounceable or not", () => {
  const suite = serviceWithPolicy(POLICY, { clock: () => new Date("2026-11-21T12:00:00Z") });
  const send = (master: string) => suite.cosigner.deliver(assetTransfer({ asset: asset(master), amount: "1000", source: HOT_WALLET, destination: COLD_WALLET }));

  it("fills one window with one limit: 5,000 a day, not 5,000 more non-bounceable", async () => {
    for (let i = 0; i < 4; i++) expect((await send(BOUNCEABLE)).verdict).toBe("signed");
    expect((await send(NON_BOUNCEABLE)).verdict).toBe("signed");
    expect((await send(NON_BOUNCEABLE)).verdict).toBe("canceled");
    expect((await send(BOUNCEABLE)).verdict).toBe("canceled");
    const { rows } = await sql<{ sum: string; groups: number }>`select coalesce(sum(amount), 0)::text as sum, count(distinct group_hash)::int as groups from velocity_charges where voided_at is null`.execute(suite.tdb.handle.db);
    expect(rows[0]).toEqual({ sum: "5000", groups: 1 });
  });
});
