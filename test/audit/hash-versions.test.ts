/**
 * A trail sealed before migration 20261125T0820_audit_hash_v2 keeps its version 1 entries; entries
 * sealed since are version 2 (row_time in the hash). Verify and the README's query take each by its
 * version, and a version that goes back is a break.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealPending } from "../../src/audit/sealer.js";
import { verifyChain } from "../../src/audit/verify.js";
import type { Db } from "../../src/db/connect.js";
import { createMigrator } from "../../src/db/migrate.js";
import { decisionRow } from "../support/decision-rows.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { readmeFirstBreak } from "../support/readme.js";

describe("entry hash versions 1 and 2 in one chain", () => {
  let tdb: TestDatabase;
  let db: Db;
  const before = decisionRow({ transaction_name: `vaults/v1/transactions/${randomUUID()}` });
  const after = decisionRow({ transaction_name: `vaults/v1/transactions/${randomUUID()}` });
  beforeAll(async () => {
    tdb = await createTestDatabase();
    db = tdb.handle.db;
    const migrator = createMigrator(db);
    const down = await migrator.migrateTo("20261125T0810_decisions_default_not_ahead");
    if (down.error) throw down.error;
    await db.insertInto("decisions").values(before).execute();
    expect(await sealPending(db)).toBe(1);
    const up = await migrator.migrateToLatest();
    if (up.error) throw up.error;
    await db.insertInto("decisions").values(after).execute();
    expect(await sealPending(db)).toBe(1);
  });
  afterAll(async () => tdb?.drop());

  it("verifies each entry by its version", async () => {
    const { rows } = await sql<{ hash_version: number }>`select hash_version from audit_chain order by position`.execute(db);
    expect(rows.map((r) => r.hash_version)).toEqual([1, 2]);
    expect(await verifyChain(db)).toMatchObject({ ok: true, lastPosition: 2 });
    expect(await readmeFirstBreak(db)).toBeUndefined();
  });

  it("names an entry whose version was changed", async () => {
    await db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await sql`update audit_chain set hash_version = 1 where position = 2`.execute(trx);
    });
    const report = await verifyChain(db);
    expect(report.breaks).toEqual([expect.objectContaining({ kind: "changed", position: 2, rowKey: after.id })]);
    expect(await readmeFirstBreak(db)).toMatchObject({ row_key: after.id, break: "changed (chain entry)" });
  });
});
