/**
 * A charge counts in a window from when its decision was written (just before the answer that
 * lets the co-signer sign), not from when the decision began. Between the two a decision waits for its wallet's lock — held by another delivery from
 * the same wallet, which whoever initiates transfers from it can line up — and for the custody
 * API (asset decimals), up to COUNTERSIGN_DECISION_TIMEOUT (60 s at most). Stamped with its start,
 * the charge left a 24 h window that long before the payment it allowed was 24 h old: the wallet
 * could send its whole daily limit twice within less than 24 hours.
 */
import pg from "pg";
import { describe, expect, it, vi } from "vitest";
import { assetTransfer, ETH } from "../../support/bodies.js";
import { dailyLimitPolicy, serviceWithEvents } from "../../support/events-service.js";
import { groupLockId } from "../../../src/velocity/group-hash.js";
import { structuredIdentity } from "../../../src/core/chains/assets.js";

const HOUR = 3_600_000;

describe("the time a charge counts from", () => {
  let clockMs = Date.parse("2026-11-21T12:00:00.000Z");
  const suite = serviceWithEvents(dailyLimitPolicy("charge-time.1"), { clock: () => new Date(clockMs) });

  it("is when the decision was written: one that waited for its wallet's lock still counts 24 h from its signature", async () => {
    const source = "vaults/5c3f1a2b9d7e/wallets/waited01";
    const key = JSON.stringify([
      ["sourceWallet", ["wallet", source]],
      ["asset", structuredIdentity(ETH)],
    ]);
    // Another decision on the same wallet holds its group lock.
    const holder = new pg.Client({ connectionString: suite.tdb.url });
    await holder.connect();
    try {
      await holder.query("begin");
      await holder.query("select pg_advisory_xact_lock($1::int8)", [String(groupLockId(key))]);
      const first = suite.cosigner.deliver(assetTransfer({ amount: "60", source }));
      await waitForLockWaiter(holder);
      clockMs += 30_000; // the wait: 30 s pass before the first delivery's decision is written
      await holder.query("commit");
      expect((await first).verdict).toBe("signed");
    } finally {
      await holder.end();
    }
    const signedAt = clockMs;
    // 24 h after the decision began, but 30 s short of 24 h after its signature: the 60 still counts.
    clockMs = signedAt - 30_000 + 24 * HOUR + 1_000;
    const second = await suite.cosigner.deliver(assetTransfer({ amount: "60", source }));
    expect(second.body).toMatchObject({ signTransaction: false, reasons: ["At most 100 ETH a day from one wallet"] });
    // Once the first is 24 h old, the room is back.
    clockMs = signedAt + 24 * HOUR + 1;
    expect((await suite.cosigner.deliver(assetTransfer({ amount: "60", source }))).verdict).toBe("signed");
  });
});

/** Until some session waits for an advisory lock. */
async function waitForLockWaiter(client: pg.Client): Promise<void> {
  await vi.waitFor(
    async () => {
      const { rows } = await client.query<{ n: string }>("select count(*)::text as n from pg_locks where locktype = 'advisory' and not granted");
      expect(rows[0]!.n, "a delivery waiting for the wallet's lock").not.toBe("0");
    },
    { timeout: 30_000, interval: 25 },
  );
}
