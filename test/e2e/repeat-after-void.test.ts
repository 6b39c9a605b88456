/**
 * A transaction allowed, then voided, then delivered again. Voiding
 * frees the window room on the premise that the transaction moved no money: the platform reported
 * it CANCELED (or FAILED, DECLINED…), or an operator ran `countersign velocity void`. Before the
 * fix, a later delivery of that name repeated the first allow: the co-signer signed it again and no
 * window counted it, so a wallet could send 60 + 60 ETH against a 100 ETH daily limit. Such a
 * delivery is now denied, recorded with `replay_of` the allow, and never signed.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { decisionRecord } from "../../src/audit/decision-rows.js";
import { ALLOWED_THEN_VOIDED } from "../../src/decision/decide.js";
import { assetTransfer } from "../support/bodies.js";
import { runCli } from "../support/cli.js";
import { postDelivery, signedDelivery } from "../support/event-sender.js";
import { dailyLimitPolicy, serviceWithEvents } from "../support/events-service.js";
import { stateUpdated } from "../support/events/harness.js";

describe("a delivery of an allowed transaction whose charges were voided", () => {
  const suite = serviceWithEvents(dailyLimitPolicy("repeat-after-void.1"));

  const rowsFor = (name: string) =>
    suite.tdb.handle.db.selectFrom("decisions").select(["id", "decision", "replayed", "replay_of", "reasons"]).where("transaction_name", "=", name).orderBy("seq").execute();

  /** 60 ETH allowed, its room freed by `free`, 60 ETH more from the same wallet allowed, then the first delivered again. */
  async function allowFreeRefill(wallet: string, free: (name: string) => Promise<void>) {
    const source = `vaults/5c3f1a2b9d7e/wallets/${wallet}`;
    const first = assetTransfer({ amount: "60", source });
    expect((await suite.cosigner.deliver(first)).verdict).toBe("signed");
    expect((await suite.cosigner.deliver(first)).verdict).toBe("signed"); // a repeat before the void: the same answer
    await free(first.name);
    expect((await suite.cosigner.deliver(assetTransfer({ amount: "60", source }))).verdict).toBe("signed");
    return { first, again: await suite.cosigner.deliver(first) };
  }

  it("is denied after the platform reported it CANCELED, and stays denied", async () => {
    const { first, again } = await allowFreeRefill("void01", async (name) => {
      const delivery = await signedDelivery(stateUpdated(name, "CANCELED"));
      expect(await postDelivery(`${suite.service.url}/v1/events`, delivery)).toMatchObject({ status: 200 });
    });
    expect(again.verdict).toBe("canceled");
    expect(again.body).toMatchObject({ signTransaction: false, reasons: [ALLOWED_THEN_VOIDED] });
    expect((await suite.cosigner.deliver(first)).verdict).toBe("canceled");
    const rows = await rowsFor(first.name);
    expect(rows.map((r) => [r.decision, r.replayed, r.replay_of === null ? null : r.replay_of === rows[0]!.id])).toEqual([
      ["allow", false, null],
      ["allow", true, true],
      ["deny", false, true],
      ["deny", false, true],
    ]);
    expect(rows[2]!.reasons).toEqual([ALLOWED_THEN_VOIDED]);
  });

  it("is denied after an operator voided it with countersign velocity void", async () => {
    const { again } = await allowFreeRefill("void02", async (name) => {
      const voided = await runCli(["velocity", "void", name, "--reason", "the platform dropped it", "--by", "ops@example.com"], { env: { DATABASE_URL: suite.tdb.url } });
      expect(voided.code).toBe(0);
    });
    expect(again.body).toMatchObject({ signTransaction: false, reasons: [ALLOWED_THEN_VOIDED] });
  });

  /**
   * The rule is the database's too: a repeat takes the name's lock, a void the groups' locks, so a
   * void can commit between the read that found the allow unvoided and the write of its signed
   * repeat. The database refuses that row, the write fails and the delivery is deferred (503); the
   * co-signer's next poll is denied.
   */
  it("is refused by the database when a signed repeat of it is written after the void", async () => {
    const { first } = await allowFreeRefill("void04", async (name) => {
      const delivery = await signedDelivery(stateUpdated(name, "CANCELED"));
      expect(await postDelivery(`${suite.service.url}/v1/events`, delivery)).toMatchObject({ status: 200 });
    });
    const allow = (await rowsFor(first.name))[0]!;
    // A repeat written from a read made before the void: the first allow's answer, replayed, through the same write function.
    const repeat = decisionRecord({
      id: randomUUID(),
      decidedAt: new Date(),
      transactionName: first.name,
      vault: "vaults/5c3f1a2b9d7e",
      decision: "allow",
      httpStatus: 200,
      replayed: true,
      replayOf: allow.id,
      policyVersion: "repeat-after-void.1",
      policyDigest: "0".repeat(64),
      matchedRules: [],
      reasons: [],
      facts: [],
      transaction: first,
      contentDigest: "x",
      requestId: randomUUID(),
      durationMs: 1,
    });
    const args = { decision: repeat, review: null, actions: [], groups: [], charges: [], widths: [60, 3600, 86400] };
    const write = suite.tdb.handle.db.transaction().execute((trx) => sql`select countersign_decision_write(${JSON.stringify(args)}::jsonb, 5000::float8)`.execute(trx));
    await expect(write).rejects.toThrow(/voided/);
    expect((await rowsFor(first.name)).filter((r) => r.replayed && r.decision === "allow" && r.id !== allow.id).length).toBe(1); // the repeat before the void only
  });

  it("a denied transaction whose name is voided is repeated as denied, and an unvoided allow as allowed", async () => {
    const source = "vaults/5c3f1a2b9d7e/wallets/void03";
    const allowed = assetTransfer({ amount: "60", source });
    const denied = assetTransfer({ amount: "60", source });
    expect((await suite.cosigner.deliver(allowed)).verdict).toBe("signed");
    expect((await suite.cosigner.deliver(denied)).verdict).toBe("canceled");
    expect((await runCli(["velocity", "void", denied.name, "--reason", "never sent"], { env: { DATABASE_URL: suite.tdb.url } })).stdout).toContain("no charges to void");
    expect((await suite.cosigner.deliver(allowed)).body).toMatchObject({ signTransaction: true, replayOf: (await rowsFor(allowed.name))[0]!.id });
    expect((await suite.cosigner.deliver(denied)).body).toMatchObject({ signTransaction: false, reasons: ["At most 100 ETH a day from one wallet"] });
  });
});
