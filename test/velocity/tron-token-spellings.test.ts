/**
 * One TRC-20 token, one window, however its contract is spelt in the asset id (found by a review of
 * velocity windows): the custody API takes a Tron account in base58 (`T…`) and in hex (`41…`, either
 * case), and a rule, the address book and the windows already read a transfer's endpoints so; but
 * the asset id's contract part was compared as written, so USDT named `assets/trc20.tron-mainnet.41a6…`
 * missed a limit rule naming `…TR7N…` and opened a daily window of its own. Against the real service.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { assetTransfer, COLD_WALLET, HOT_WALLET } from "../support/bodies.js";
import { serviceWithPolicy } from "../support/service.js";

const USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const USDT_HEX = "41a614f803b6fd780986a42c78ec9c7f77e6ded13c";
const asset = (contract: string) => `assets/trc20.tron-mainnet.${contract}`;

const POLICY = `
version: "tron-token-spellings.1"
default: deny
windows:
  - {name: daily_out, duration: 24h, groupBy: [sourceWallet, asset], measure: amount}
rules:
  - id: usdt-daily-limit
    decision: deny
    when:
      and:
        - {"in": [{"var": "transfer.asset"}, ["${asset(USDT)}"]]}
        - {">": [{"var": "velocity.daily_out.amountAfter"}, "5000"]}
  - id: internal
    decision: allow
    when: {"var": "transfer.destination.internal"}
`;

describe("a TRC-20 token's contract spelt in base58 or in hex", () => {
  const suite = serviceWithPolicy(POLICY, { clock: () => new Date("2026-11-21T12:00:00Z") });
  const send = (contract: string) => suite.cosigner.deliver(assetTransfer({ asset: asset(contract), amount: "1000", source: HOT_WALLET, destination: COLD_WALLET }));

  it("fills one window with one limit: 5,000 a day, not 5,000 more in hex", async () => {
    for (let i = 0; i < 5; i++) expect((await send(USDT)).verdict).toBe("signed");
    expect((await send(USDT)).verdict).toBe("canceled");
    expect((await send(USDT_HEX)).verdict).toBe("canceled");
    expect((await send(USDT_HEX.toUpperCase())).verdict).toBe("canceled");
    const { rows } = await sql<{ sum: string }>`select coalesce(sum(amount), 0)::text as sum from velocity_charges where voided_at is null`.execute(suite.tdb.handle.db);
    expect(rows[0]!.sum).toBe("5000");
  });
});
