/**
 * `audit verify --from T --checkpoint ANCHOR` after archiving: `audit_chain.sealed_at` is not in
 * the entry hash, so the schema owner can move it. A row that is still there is always checked,
 * whatever its entry says; a gone row counts as archived only when its entry is dated before T and
 * lies at or before the anchor. An entry's row_time is in its hash, and every entry's hash is
 * checked, before the walk's start too: moving an anchored entry's row_time and sealed_at before
 * the cut and deleting its row is a break.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { latestCheckpoint } from "../../../src/audit/checkpoint.js";
import { sealPending } from "../../../src/audit/sealer.js";
import { verifyChain, type Checkpoint } from "../../../src/audit/verify.js";
import type { Db } from "../../../src/database.js";
import { decisionRow } from "../../support/decision-rows.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";

/** As the schema's owner, with triggers off. */
async function asOwner(db: Db, statements: ReturnType<typeof sql>[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    for (const s of statements) await s.execute(trx);
  });
}

const cut = new Date("2026-11-01T00:00:00Z");
const name = () => `vaults/v1/transactions/${randomUUID()}`;

describe("audit verify --from with an anchored checkpoint", () => {
  let tdb: TestDatabase;
  let db: Db;
  const old = decisionRow({ decided_at: new Date("2026-10-15T12:00:00Z"), transaction_name: name() });
  const target = decisionRow({ decision: "deny", sign_transaction: false, transaction_name: name() });
  const later = decisionRow({ transaction_name: name() });
  let anchorBeforeTarget: Checkpoint;
  let anchorAfterAll: Checkpoint;

  beforeEach(async () => {
    tdb = await createTestDatabase();
    db = tdb.handle.db;
    await sql`select decisions_create_month('2026-10-01')`.execute(db);
    await db.insertInto("decisions").values(old).execute();
    expect(await sealPending(db)).toBe(1);
    anchorBeforeTarget = (await latestCheckpoint(db))!;
    for (const r of [target, later]) await db.insertInto("decisions").values(r).execute();
    expect(await sealPending(db)).toBe(2);
    anchorAfterAll = (await latestCheckpoint(db))!;
  });
  afterEach(async () => tdb?.drop());

  const rewriteTarget = sql`update decisions set decision = 'allow', sign_transaction = true where id = ${target.id}`;
  /** The target's entry, edited: its row_time is in its hash. */
  const editedEntry = () => expect.objectContaining({ kind: "changed", position: 2, rowKey: target.id, detail: expect.stringContaining("no longer hashes to its recorded hash") });
  const backdateTargetEntry = sql`update audit_chain set row_time = '2026-10-01T00:00:00Z' where row_key = ${target.id}`;

  it("checks a rewritten row although its entry's row_time was moved before --from", async () => {
    expect((await verifyChain(db, { from: cut, checkpoint: anchorAfterAll })).ok).toBe(true);
    await asOwner(db, [backdateTargetEntry, rewriteTarget]);
    const report = await verifyChain(db, { from: cut, checkpoint: anchorAfterAll });
    expect(report.breaks).toEqual([editedEntry(), expect.objectContaining({ kind: "changed", rowKey: target.id })]);
  });

  it("checks a rewritten row although row_time and sealed_at were moved so that the walk starts after it", async () => {
    await asOwner(db, [sql`update audit_chain set row_time = '2026-10-01T00:00:00Z', sealed_at = '2026-10-01T00:00:00Z' where row_key = ${target.id}`, rewriteTarget]);
    const report = await verifyChain(db, { from: cut, checkpoint: anchorAfterAll });
    expect(report.breaks).toEqual([editedEntry(), expect.objectContaining({ kind: "changed", rowKey: target.id })]);
  });

  it("names a deleted row sealed after the anchor although its entry's row_time was moved before --from", async () => {
    await asOwner(db, [backdateTargetEntry, sql`delete from decisions where id = ${target.id}`]);
    const report = await verifyChain(db, { from: cut, checkpoint: anchorBeforeTarget });
    expect(report.breaks).toEqual([editedEntry(), expect.objectContaining({ kind: "missing", rowKey: target.id })]);
  });

  it("names a deleted row sealed before the anchor once its entry's row_time and sealed_at were moved before --from", async () => {
    // The old row's entry sealed before the cut (sealed_at is not hashed), so the walk's rows start after it.
    await asOwner(db, [sql`update audit_chain set sealed_at = '2026-10-16T00:00:00Z' where row_key = ${old.id}`]);
    expect(await verifyChain(db, { from: cut, checkpoint: anchorAfterAll })).toMatchObject({ ok: true, firstPosition: 2 });
    await asOwner(db, [
      sql`update audit_chain set row_time = '2026-10-01T00:00:00Z', sealed_at = '2026-10-01T00:00:00Z' where row_key = ${target.id}`,
      sql`delete from decisions where id = ${target.id}`,
    ]);
    const report = await verifyChain(db, { from: cut, checkpoint: anchorAfterAll });
    expect(report.firstPosition).toBe(3);
    expect(report.breaks).toEqual([editedEntry()]);
  });

  it("takes a gone row dated before --from as archived only when an anchored checkpoint covers it", async () => {
    await sql`alter table decisions detach partition decisions_2026_10`.execute(db);
    await sql`drop table decisions_2026_10`.execute(db);
    expect((await verifyChain(db, { from: cut, checkpoint: anchorBeforeTarget })).ok).toBe(true);
    const unanchored = await verifyChain(db, { from: cut });
    expect(unanchored.breaks).toEqual([expect.objectContaining({ kind: "missing", rowKey: old.id })]);
  });
});
