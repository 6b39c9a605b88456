/**
 * A transaction whose charges were voided, then reported CONFIRMED, counts in the windows again.
 * An operator voids a DROPPED transaction believing its signature dead; someone who saw it in the
 * mempool rebroadcasts it and it is mined. Before, its room stayed free: with a 100 ETH daily limit
 * the wallet sent 60 ETH, had it voided, and 60 ETH more was signed while the first 60 landed.
 * Also: a void that takes the groups' locks after a CONFIRMED was stored voids nothing.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { voidCharges } from "../../src/velocity/ledger.js";
import { assetTransfer } from "../support/bodies.js";
import { runCli } from "../support/cli.js";
import { CosignerSimulator } from "../support/cosigner.js";
import { eventKeys, postDelivery, signedDelivery } from "../support/event-sender.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { writeTempPem } from "../support/service-account.js";
import { startTestService, writeBundle } from "../support/service.js";
import { stateUpdated } from "../events/harness.js";

const POLICY = `
version: "confirmed-after-void.1"
default: deny
windows:
  - {name: daily_out, duration: 24h, groupBy: [sourceWallet, asset], measure: amount}
rules:
  - id: daily-limit
    decision: deny
    reason: At most 100 ETH a day from one wallet
    when: {">": [{"var": "velocity.daily_out.amountAfter"}, "100"]}
  - id: internal
    decision: allow
    when: {"var": "transfer.destination.internal"}
`;

describe("a transaction voided, then reported CONFIRMED", () => {
  let tdb: TestDatabase;
  let service: Awaited<ReturnType<typeof startTestService>>;
  let cosigner: CosignerSimulator;
  let keyFile: { path: string; remove(): void };

  beforeAll(async () => {
    tdb = await createTestDatabase();
    keyFile = writeTempPem((await eventKeys()).platform.publicKeyPem, "events-public.pem");
    service = await startTestService({ database: tdb.handle, policiesDir: writeBundle(POLICY), env: { COUNTERSIGN_EVENTS_PUBLIC_KEY_FILE: keyFile.path } });
    cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
  });
  afterAll(async () => {
    await service?.stop();
    await tdb?.drop();
    keyFile?.remove();
  });

  const report = async (name: string, state: string) => {
    const delivery = await signedDelivery(stateUpdated(name, state));
    expect(await postDelivery(`${service.url}/v1/events`, delivery)).toMatchObject({ status: 200 });
  };
  const liveCharges = async (name: string) =>
    (await tdb.handle.db.selectFrom("velocity_charges").select("id").where("transaction_name", "=", name).where("voided_at", "is", null).execute()).length;

  it("counts again: the wallet's next 60 ETH is denied, as it was before the void", async () => {
    const source = "vaults/5c3f1a2b9d7e/wallets/conf01";
    const first = assetTransfer({ amount: "60", source });
    expect((await cosigner.deliver(first)).verdict).toBe("signed");
    await report(first.name, "DROPPED");
    const voided = await runCli(["velocity", "void", first.name, "--reason", "dropped, signature believed dead"], { env: { DATABASE_URL: tdb.url } });
    expect(voided.code).toBe(0);
    expect(await liveCharges(first.name)).toBe(0);

    await report(first.name, "CONFIRMED"); // rebroadcast and mined
    expect(await liveCharges(first.name)).toBeGreaterThan(0);
    const effects = await sql<{ effect: string }>`
      select f.effect from event_effects f join events e on e.id = f.event_id where e.resource = ${first.name} and e.new_state = 'CONFIRMED'`.execute(tdb.handle.db);
    expect(effects.rows).toEqual([{ effect: "count-charges-again" }]);

    const second = await cosigner.deliver(assetTransfer({ amount: "60", source }));
    expect(second.verdict).toBe("canceled");
    expect(second.body).toMatchObject({ signTransaction: false, reasons: ["At most 100 ETH a day from one wallet"] });
    // Counted again, so a repeat of the first is signed again as first decided.
    expect((await cosigner.deliver(first)).verdict).toBe("signed");
  });

  it("a void after a stored CONFIRMED voids nothing, checked under the groups' locks", async () => {
    const first = assetTransfer({ amount: "5", source: "vaults/5c3f1a2b9d7e/wallets/conf02" });
    expect((await cosigner.deliver(first)).verdict).toBe("signed");
    await report(first.name, "CONFIRMED");
    expect(await voidCharges(tdb.handle.db, first.name, new Date())).toEqual({ voided: 0, confirmed: true });
    expect(await liveCharges(first.name)).toBeGreaterThan(0);
    const refused = await runCli(["velocity", "void", first.name, "--reason", "x"], { env: { DATABASE_URL: tdb.url } });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain("CONFIRMED");
  });
});
