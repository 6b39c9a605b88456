/**
 * A transaction whose charges were voided, then reported CONFIRMED, counts in the windows again.
 * An operator voids a DROPPED transaction believing its signature dead; someone who saw it in the
 * mempool rebroadcasts it and it is mined. Before, its room stayed free: with a 100 ETH daily limit
 * the wallet sent 60 ETH, had it voided, and 60 ETH more was signed while the first 60 landed.
 * Also: a void that takes the groups' locks after a CONFIRMED was stored voids nothing.
 */
import { sql } from "kysely";
import { describe, expect, it, vi } from "vitest";
import { voidCharges } from "../../src/velocity/ledger.js";
import { assetTransfer } from "../support/bodies.js";
import { runCli } from "../support/cli.js";
import { postDelivery, signedDelivery } from "../support/event-sender.js";
import { dailyLimitPolicy, serviceWithEvents } from "../support/events-service.js";
import { stateUpdated } from "../support/events/harness.js";

describe("a transaction voided, then reported CONFIRMED", () => {
  const suite = serviceWithEvents(dailyLimitPolicy("confirmed-after-void.1"));

  const report = async (name: string, state: string) => {
    const delivery = await signedDelivery(stateUpdated(name, state));
    expect(await postDelivery(`${suite.service.url}/v1/events`, delivery)).toMatchObject({ status: 200 });
  };
  const liveCharges = async (name: string) =>
    (await suite.tdb.handle.db.selectFrom("velocity_charges").select("id").where("transaction_name", "=", name).where("voided_at", "is", null).execute()).length;

  it("counts again: the wallet's next 60 ETH is denied, as it was before the void", async () => {
    const source = "vaults/5c3f1a2b9d7e/wallets/conf01";
    const first = assetTransfer({ amount: "60", source });
    expect((await suite.cosigner.deliver(first)).verdict).toBe("signed");
    await report(first.name, "DROPPED");
    const voided = await runCli(["velocity", "void", first.name, "--reason", "dropped, signature believed dead"], { env: { DATABASE_URL: suite.tdb.url } });
    expect(voided.code).toBe(0);
    expect(await liveCharges(first.name)).toBe(0);

    await report(first.name, "CONFIRMED"); // rebroadcast and mined
    expect(await liveCharges(first.name)).toBeGreaterThan(0);
    const effects = await sql<{ effect: string }>`
      select f.effect from event_effects f join events e on e.id = f.event_id where e.resource = ${first.name} and e.new_state = 'CONFIRMED'`.execute(suite.tdb.handle.db);
    expect(effects.rows).toEqual([{ effect: "count-charges-again" }]);

    const second = await suite.cosigner.deliver(assetTransfer({ amount: "60", source }));
    expect(second.verdict).toBe("canceled");
    expect(second.body).toMatchObject({ signTransaction: false, reasons: ["At most 100 ETH a day from one wallet"] });
    // Counted again, so a repeat of the first is signed again as first decided.
    expect((await suite.cosigner.deliver(first)).verdict).toBe("signed");
  });

  it("a void after a stored CONFIRMED voids nothing, checked under the groups' locks", async () => {
    const first = assetTransfer({ amount: "5", source: "vaults/5c3f1a2b9d7e/wallets/conf02" });
    expect((await suite.cosigner.deliver(first)).verdict).toBe("signed");
    await report(first.name, "CONFIRMED");
    expect(await voidCharges(suite.tdb.handle.db, first.name, new Date())).toEqual({ voided: 0, confirmed: true });
    expect(await liveCharges(first.name)).toBeGreaterThan(0);
    const refused = await runCli(["velocity", "void", first.name, "--reason", "x"], { env: { DATABASE_URL: suite.tdb.url } });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain("CONFIRMED");
  });
});

describe("a CONFIRMED delivered while a void of the same transaction is under way", () => {
  const suite = serviceWithEvents(dailyLimitPolicy("confirmed-during-void.1"));
  const liveCharges = async (name: string) =>
    (await suite.tdb.handle.db.selectFrom("velocity_charges").select("id").where("transaction_name", "=", name).where("voided_at", "is", null).execute()).length;

  // The void (an operator's `velocity void`, or a CANCELED delivered at the same moment) has
  // checked for CONFIRMED under the groups' locks and voided, not yet committed; the CONFIRMED
  // is stored and its count-again runs now. Before, the count-again looked for voided charges
  // without the locks, found none (the void was not committed), recorded its effect complete and
  // answered 200; the void then committed, and the mined 60 ETH stopped counting for good.
  it("counts the charges again once the void commits: the wallet's next 60 ETH is denied", async () => {
    const source = "vaults/5c3f1a2b9d7e/wallets/confrace01";
    const first = assetTransfer({ amount: "60", source });
    expect((await suite.cosigner.deliver(first)).verdict).toBe("signed");

    let commitVoid!: () => void;
    const voidMayCommit = new Promise<void>((resolve) => (commitVoid = resolve));
    let voidDone!: () => void;
    const voided = new Promise<void>((resolve) => (voidDone = resolve));
    const voiding = suite.tdb.handle.db.transaction().execute(async (trx) => {
      expect(await voidCharges(trx, first.name, new Date())).toEqual({ voided: expect.any(Number) });
      voidDone();
      await voidMayCommit;
    });
    await voided;

    const delivery = await signedDelivery(stateUpdated(first.name, "CONFIRMED"));
    const confirming = postDelivery(`${suite.service.url}/v1/events`, delivery);
    // The count-again waits for the groups' locks the open void holds (it cannot count before the void commits).
    await vi.waitFor(
      async () => {
        const { rows } = await sql<{
          n: number;
        }>`select count(*)::int as n from pg_locks where not granted and database = (select oid from pg_database where datname = current_database())`.execute(suite.tdb.handle.db);
        expect(rows[0]!.n, "sessions waiting for the void's locks").toBeGreaterThan(0);
      },
      { timeout: 30_000, interval: 25 },
    );
    commitVoid();
    await voiding;
    expect(await confirming).toMatchObject({ status: 200 });

    expect(await liveCharges(first.name)).toBeGreaterThan(0);
    const second = await suite.cosigner.deliver(assetTransfer({ amount: "60", source }));
    expect(second.verdict).toBe("canceled");
  });
});
