/**
 * One network, one window group, however a body names it (found by a review of velocity windows):
 * a transfer of an opaque asset id in a body that states no network was counted under the network
 * null, and one of an asset id naming its chain without the net (`assets/native.ethereum`) under
 * `ethereum`, each with the whole limit again, beside `assets/native.ethereum-mainnet`. While a
 * window groups by network or asset, such a transfer is denied. Against the real service over HTTP.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { assetTransfer, COLD_WALLET, ETH, HOT_WALLET } from "../support/bodies.js";
import { serviceWithPolicy } from "../support/service.js";

const allowInternal = (version: string, windows: string, limit: string) => `
version: "${version}"
default: deny
windows:
${windows}
rules:
  - id: internal-limit
    decision: allow
    when:
      and:
        - {"var": "transfer.destination.internal"}
        - ${limit}
`;

const OPAQUE = "assets/e72ff35a5b15";
const ADMIN_TOKEN = "admin-token-for-network-spellings";

describe("a count window per wallet and network", () => {
  const suite = serviceWithPolicy(
    allowInternal("network-spellings.1", `  - {name: per_chain, duration: 1h, groupBy: [sourceWallet, network], measure: count}`, `{"<=": [{"var": "velocity.per_chain.countAfter"}, 3]}`),
    { clock: () => new Date("2026-11-21T12:00:00Z"), env: { COUNTERSIGN_ADMIN_TOKEN: ADMIN_TOKEN } },
  );
  const send = (asset: string, network?: string) =>
    suite.cosigner.deliver({ ...assetTransfer({ asset, amount: "1", source: HOT_WALLET, destination: COLD_WALLET }), ...(network ? { network } : {}) });

  it("signs 3 transfers of ETH an hour, not 3 more under an opaque asset id or the chain named without its net", async () => {
    for (let i = 0; i < 3; i++) expect((await send(ETH)).verdict).toBe("signed");
    expect((await send(ETH)).verdict).toBe("canceled");
    const opaque = await send(OPAQUE);
    expect(opaque.verdict).toBe("canceled");
    expect(JSON.stringify(opaque.body)).toContain(`the network of asset ${OPAQUE} is unknown`);
    const chainOnly = await send("assets/native.ethereum");
    expect(chainOnly.verdict).toBe("canceled");
    expect(JSON.stringify(chainOnly.body)).toContain("network ethereum is not a network id");
    const { rows } = await sql<{ n: string }>`select count(*)::text as n from velocity_charges where voided_at is null`.execute(suite.tdb.handle.db);
    expect(rows[0]!.n).toBe("3");
  });

  it("is answered the same by POST /v1/evaluate, with what the policy alone would say", async () => {
    const body = assetTransfer({ asset: OPAQUE, amount: "1", source: `${HOT_WALLET}x`, destination: COLD_WALLET });
    const response = await fetch(`${suite.service.url}/v1/evaluate`, { method: "POST", headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, body: JSON.stringify(body) });
    expect(await response.json()).toMatchObject({ decision: "deny", reasons: [expect.stringContaining(`the network of asset ${OPAQUE} is unknown`)], policyOutcome: "allow" });
  });

  it("an opaque asset id in a body that states its network counts under that network", async () => {
    expect((await send(OPAQUE, "networks/ethereum-mainnet")).verdict).toBe("canceled");
    expect((await send(OPAQUE, "networks/polygon-mainnet")).verdict).toBe("signed");
  });
});

describe("an amount window per wallet and asset", () => {
  const suite = serviceWithPolicy(
    allowInternal("network-spellings.2", `  - {name: daily_out, duration: 24h, groupBy: [sourceWallet, asset], measure: amount}`, `{"<=": [{"var": "velocity.daily_out.amountAfter"}, "5000"]}`),
    { clock: () => new Date("2026-11-21T12:00:00Z") },
  );

  it("ETH as assets/native.ethereum does not open a second 5,000 a day beside assets/native.ethereum-mainnet", async () => {
    const send = (asset: string) => suite.cosigner.deliver(assetTransfer({ asset, amount: "1000", source: HOT_WALLET, destination: COLD_WALLET }));
    for (let i = 0; i < 5; i++) expect((await send(ETH)).verdict).toBe("signed");
    const chainOnly = await send("assets/native.Ethereum");
    expect(chainOnly.verdict).toBe("canceled");
    expect(JSON.stringify(chainOnly.body)).toContain("a window groups by asset");
    const { rows } = await sql<{ sum: string }>`select coalesce(sum(amount), 0)::text as sum from velocity_charges where voided_at is null`.execute(suite.tdb.handle.db);
    expect(rows[0]!.sum).toBe("5000");
  });
});

describe("without a window grouped by network or asset", () => {
  const suite = serviceWithPolicy(
    allowInternal("network-spellings.3", `  - {name: hourly_count, duration: 1h, groupBy: [sourceWallet], measure: count}`, `{"<=": [{"var": "velocity.hourly_count.countAfter"}, 10]}`),
  );

  it("a transfer whose network is unknown or named without its net is evaluated as any other", async () => {
    for (const asset of [OPAQUE, "assets/native.ethereum"]) {
      expect((await suite.cosigner.deliver(assetTransfer({ asset, amount: "1", source: HOT_WALLET, destination: COLD_WALLET }))).verdict).toBe("signed");
    }
  });
});
