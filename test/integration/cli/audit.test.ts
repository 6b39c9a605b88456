import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealPending } from "../../../src/audit/sealer.js";
import { runCli } from "../../support/cli.js";
import { decisionRow } from "../../support/decision-rows.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";

describe("countersign audit verify and audit checkpoint", () => {
  let tdb: TestDatabase;
  const rows = [decisionRow({ transaction_name: "vaults/v1/transactions/a" }), decisionRow({ transaction_name: "vaults/v1/transactions/b" })];
  beforeAll(async () => {
    tdb = await createTestDatabase();
    for (const row of rows) await tdb.handle.db.insertInto("decisions").values(row).execute();
    await sealPending(tdb.handle.db);
  });
  afterAll(async () => tdb?.drop());

  it("prints a checkpoint, verifies against it, and exits 1 naming the row once one is edited", async () => {
    const env = { DATABASE_URL: tdb.url };
    const checkpoint = await runCli(["audit", "checkpoint"], { env });
    expect(checkpoint.code).toBe(0);
    const anchor = /^anchor (\S+)$/m.exec(checkpoint.stdout)?.[1];
    expect(anchor).toMatch(/^2:[0-9a-f]{64}$/);
    expect(checkpoint.stdout).toContain("rows decisions=2");

    const clean = await runCli(["audit", "verify", "--checkpoint", anchor!], { env });
    expect(clean.code).toBe(0);
    expect(clean.stdout).toContain("audit trail intact: positions 1..2");
    expect(clean.stdout).toContain("schema verified: public");

    await tdb.handle.db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await sql`update decisions set reasons = '["edited"]' where id = ${rows[1]!.id}`.execute(trx);
    });
    const broken = await runCli(["audit", "verify"], { env });
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(`first break: changed decisions ${rows[1]!.id} at position 2`);
  });

  it("refuses, with exit 3 and the refusal's code, to verify a trail table with a rewrite rule", async () => {
    const env = { DATABASE_URL: tdb.url };
    await sql`create rule events_elsewhere as on insert to events do instead nothing`.execute(tdb.handle.db);
    try {
      const refused = await runCli(["audit", "verify"], { env });
      expect(refused.code).toBe(3);
      expect(refused.stdout).toContain("refused (rewrite_rules)");
    } finally {
      await sql`drop rule events_elsewhere on events`.execute(tdb.handle.db);
    }
  });

  it("refuses malformed options with exit 2", async () => {
    const env = { DATABASE_URL: tdb.url };
    expect((await runCli(["audit", "verify", "--from", "yesterday-ish"], { env })).code).toBe(2);
    expect((await runCli(["audit", "verify", "--checkpoint", "12:nothex"], { env })).code).toBe(2);
    const unanchored = await runCli(["audit", "verify", "--from", "2026-11-01"], { env });
    expect(unanchored.code).toBe(2);
    expect(unanchored.stdout).toContain("--from needs --checkpoint");
  });
});
