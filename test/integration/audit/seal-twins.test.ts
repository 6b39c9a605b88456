/**
 * Twins (one id, two times: `decisions` is unique on (id, decided_at) only) do not stop the sealer:
 * one is sealed, verify names the other (the writer's two rows in one batch
 * aborted every seal for good). A row reusing an archived row's id is named as well.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { latestCheckpoint } from "../../../src/audit/checkpoint.js";
import { sealPending, sealRound } from "../../../src/audit/sealer.js";
import { verifyChain } from "../../../src/audit/verify.js";
import type { DatabaseHandle } from "../../../src/database.js";
import { decisionRow } from "../../support/decision-rows.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { createLogin, type Login } from "../../support/audit/logins.js";

const name = () => `vaults/v1/transactions/${randomUUID()}`;

describe("the sealer and verify with twins written by the writer role", () => {
  let tdb: TestDatabase;
  let login: Login;
  let writer: DatabaseHandle;
  beforeEach(async () => {
    tdb = await createTestDatabase();
    login = await createLogin("countersign_writer");
    writer = await login.open(tdb.url);
  });
  afterEach(async () => {
    await writer?.close();
    await tdb?.drop();
    await login?.drop();
  });

  it("seals one of two twins in a batch, keeps sealing later rows, and verify names the other", async () => {
    const first = decisionRow({ decided_at: new Date(Date.now() - 1_000), transaction_name: name() });
    const twin = { ...first, decided_at: new Date(), decision: "deny" as const, sign_transaction: false, request_id: randomUUID() };
    await writer.db.insertInto("decisions").values([first, twin]).execute();
    expect(await sealRound(writer.db)).toEqual({ ok: true, linked: 1 });
    const { rows } = await sql<{ row_time: Date }>`select row_time from audit_chain where row_key = ${first.id}`.execute(tdb.handle.db);
    expect(rows.map((r) => r.row_time.toISOString())).toEqual([first.decided_at.toISOString()]);

    const later = decisionRow({ transaction_name: name() });
    await writer.db.insertInto("decisions").values(later).execute();
    expect(await sealRound(writer.db)).toEqual({ ok: true, linked: 1 });

    const report = await verifyChain(tdb.handle.db);
    expect(report.breaks).toEqual([expect.objectContaining({ kind: "inserted", position: 1, rowKey: first.id, detail: expect.stringMatching(/2 rows carry this key/) })]);
  });

  it("names a row that reuses an archived row's id", async () => {
    const db = tdb.handle.db;
    const old = decisionRow({ decided_at: new Date("2026-10-15T12:00:00Z"), transaction_name: name() });
    await sql`select decisions_create_month('2026-10-01')`.execute(db);
    await db
      .insertInto("decisions")
      .values([old, decisionRow({ transaction_name: name() })])
      .execute();
    expect(await sealPending(db)).toBe(2);
    // The README's archiving: anchor, export, detach and drop the month.
    const anchor = (await latestCheckpoint(db))!;
    await sql`alter table decisions detach partition decisions_2026_10`.execute(db);
    await sql`drop table decisions_2026_10`.execute(db);
    const from = new Date("2026-11-01T00:00:00Z");
    expect((await verifyChain(db, { from, checkpoint: anchor })).ok).toBe(true);

    const ghost = { ...old, decided_at: new Date(Date.now() - 10 * 60_000), decision: "deny" as const, sign_transaction: false, request_id: randomUUID() };
    await writer.db.insertInto("decisions").values(ghost).execute();
    expect(await sealPending(writer.db)).toBe(0); // the chain holds its key
    const report = await verifyChain(db, { from, checkpoint: anchor });
    expect(report).toMatchObject({ ok: false, pending: 0 });
    expect(report.breaks).toEqual([expect.objectContaining({ rowKey: old.id, detail: expect.stringContaining("dated otherwise than its sealed row") })]);
  });
});
