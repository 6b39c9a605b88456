import { userInfo } from "node:os";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../support/cli.js";
import { CosignerSimulator } from "../../support/cosigner.js";
import { assetTransfer } from "../../support/bodies.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { startTestService } from "../../support/service.js";

describe("countersign velocity void NAME", () => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.drop());

  const voidsOf = (name: string) =>
    tdb.handle.db.selectFrom("velocity_voids").select(["charges", "operator", "reason", "database_user"]).where("transaction_name", "=", name).orderBy("seq").execute();

  it("voids the charges of an allowed transaction once, records who and why, and refuses a malformed call", async () => {
    const service = await startTestService({ database: tdb.handle });
    const body = assetTransfer({ amount: "2" });
    const cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
    expect((await cosigner.deliver(body)).verdict).toBe("signed");
    await service.stop();

    const env = { DATABASE_URL: tdb.url };
    const reason = "dropped from the mempool; the platform confirmed the nonce was reused";
    for (const args of [
      [body.name],
      [body.name, "--reason", "  "],
      ["not-a-name", "--reason", reason],
      [body.name, "extra", "--reason", reason],
      [body.name, "--reason", reason, "--by", ""],
    ]) {
      const refused = await runCli(["velocity", "void", ...args], { env });
      expect(refused.code, args.join(" ")).toBe(2);
    }
    expect(await voidsOf(body.name)).toEqual([]);

    const first = await runCli(["velocity", "void", body.name, "--reason", reason, "--by", "alice@example.com"], { env });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/voided [1-9][0-9]* charges?, recorded in velocity_voids \(by alice@example.com\)/);
    const live = await tdb.handle.db.selectFrom("velocity_charges").select("id").where("transaction_name", "=", body.name).where("voided_at", "is", null).execute();
    expect(live).toEqual([]);
    const charged = await tdb.handle.db.selectFrom("velocity_charges").select("id").where("transaction_name", "=", body.name).execute();
    expect(await voidsOf(body.name)).toEqual([{ charges: charged.length, operator: "alice@example.com", reason, database_user: "postgres" }]);

    // Nothing left to void: nothing recorded.
    const second = await runCli(["velocity", "void", body.name, "--reason", reason], { env });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("no charges to void");
    expect(await voidsOf(body.name)).toHaveLength(1);
  });

  it("names the OS user as the operator when --by is not given, and the void shows in transaction_timeline", async () => {
    const service = await startTestService({ database: tdb.handle });
    const body = assetTransfer({ amount: "1" });
    const cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
    expect((await cosigner.deliver(body)).verdict).toBe("signed");
    await service.stop();
    expect((await runCli(["velocity", "void", body.name, "--reason", "never broadcast"], { env: { DATABASE_URL: tdb.url } })).code).toBe(0);
    expect((await voidsOf(body.name)).map((v) => v.operator)).toEqual([userInfo().username]);
    const { rows } = await sql<{ kind: string; detail: string }>`
      select kind, detail from transaction_timeline where transaction_name = ${body.name} order by at, seq`.execute(tdb.handle.db);
    expect(rows.map((r) => r.kind)).toEqual(["decision", "void"]);
    expect(rows[1]!.detail).toBe(`${userInfo().username}: never broadcast`);
  });

  it("keeps its record append-only, in the hash chain", async () => {
    await expect(sql`update velocity_voids set reason = 'x'`.execute(tdb.handle.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from velocity_voids`.execute(tdb.handle.db)).rejects.toThrow(/append-only/);
    const { rows } = await sql<{ source: string }>`select source from audit_sources where source = 'velocity_voids'`.execute(tdb.handle.db);
    expect(rows).toHaveLength(1);
  });

  // The events endpoint keeps the charges of a transaction the
  // platform reported CONFIRMED (the money moved), and the README's "effects never completed" query
  // listed such a late failure for voiding by hand; `velocity void` freed the room of a confirmed
  // payment, so the wallet could spend it again inside the window.
  it("refuses a transaction the platform reported CONFIRMED: its charges keep counting", async () => {
    const service = await startTestService({ database: tdb.handle });
    const body = assetTransfer({ amount: "3" });
    const cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
    expect((await cosigner.deliver(body)).verdict).toBe("signed");
    await service.stop();
    for (const [id, state] of [
      [`evt-confirmed-${Date.now()}`, "CONFIRMED"],
      [`evt-failed-${Date.now()}`, "FAILED"],
    ] as const) {
      const payload = {
        id,
        vault: body.name.split("/").slice(0, 2).join("/"),
        type: "TRANSACTION_STATE_UPDATED",
        resourceType: "TRANSACTION",
        resource: body.name,
        details: { transactionStateUpdated: { newState: state } },
      };
      await tdb.handle.db
        .insertInto("events")
        .values({
          id,
          received_at: new Date(),
          vault: payload.vault,
          type: payload.type,
          resource_type: "TRANSACTION",
          resource: body.name,
          new_state: state,
          details: JSON.stringify(payload.details),
          payload: JSON.stringify(payload),
          body: Buffer.from(JSON.stringify(payload)),
          signature: "c2ln",
        })
        .execute();
    }

    const refused = await runCli(["velocity", "void", body.name, "--reason", "failed on chain"], { env: { DATABASE_URL: tdb.url } });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain("CONFIRMED");
    const live = await tdb.handle.db.selectFrom("velocity_charges").select("id").where("transaction_name", "=", body.name).where("voided_at", "is", null).execute();
    expect(live.length).toBeGreaterThan(0);
    expect(await voidsOf(body.name)).toEqual([]);
  });
});
