/**
 * Must-show 1: `audit verify` passes on a clean trail; a superuser who bypasses the triggers to
 * edit a row's decision, delete a row, insert a forged row or move chain entries makes it fail
 * and name the row; restoring the edited row restores the chain. On both backends.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealPending } from "../../../src/audit/sealer.js";
import { verifyChain } from "../../../src/audit/verify.js";
import type { Db } from "../../../src/database.js";
import { backends } from "../../support/backends.js";
import { decisionRow } from "../../support/decision-rows.js";
import { docsFirstBreak } from "../../support/docs.js";

/** Runs statements as a superuser with triggers off (session_replication_role = replica). */
async function bypassingTriggers(db: Db, statements: ReturnType<typeof sql>[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    for (const s of statements) await s.execute(trx);
  });
}

describe.each(backends)("audit verify on $name", (backend) => {
  let db: Db;
  let close: () => Promise<void>;
  const ids: string[] = [];
  // Three months, so the chain crosses monthly partitions (and the default one for 2019).
  const times = ["2019-06-01T10:00:00Z", "2026-09-30T23:59:59.999Z", "2026-10-01T00:00:00Z", "2026-10-15T12:00:00Z", "2026-11-02T08:30:00Z"];

  beforeAll(async () => {
    ({ db, close } = await backend.open());
    // Past months are not created ahead; make two, so rows land in three monthly partitions and the default.
    await sql`select decisions_create_month('2026-09-01'), decisions_create_month('2026-10-01')`.execute(db);
    for (const [i, at] of times.entries()) {
      const row = decisionRow({ decided_at: new Date(at), transaction_name: `vaults/v1/transactions/t${i}`, duration_ms: 1.5 + i / 3 });
      await db.insertInto("decisions").values(row).execute();
      ids.push(row.id);
    }
    await sql`insert into events (id, received_at, vault, type, resource, payload, body, signature)
      values ('ev-1', '2026-10-15T12:00:01Z', 'vaults/v1', 'TRANSACTION_CREATED', 'vaults/v1/transactions/t3', '{"id":"ev-1"}', '\\x7b7d'::bytea, 'sig')`.execute(db);
    expect(await sealPending(db)).toBe(times.length + 1);
  });
  afterAll(async () => close?.());

  it("passes on a clean trail that spans several partitions", async () => {
    const { rows } = await sql<{ partitions: number }>`
      select count(distinct tableoid)::int as partitions from decisions`.execute(db);
    expect(rows[0]?.partitions).toBe(4);
    const report = await verifyChain(db);
    expect(report).toMatchObject({ ok: true, breakCount: 0, firstPosition: 1, lastPosition: times.length + 1, pending: 0 });
    // Anyone with SQL alone agrees.
    expect(await docsFirstBreak(db)).toBeUndefined();
  });

  it("names a row whose decision was edited, and is whole again once the row is restored", async () => {
    const id = ids[2]!;
    await bypassingTriggers(db, [sql`update decisions set decision = 'deny', sign_transaction = false where id = ${id}`]);
    const broken = await verifyChain(db);
    expect(broken.ok).toBe(false);
    expect(broken.breaks[0]).toMatchObject({ kind: "changed", source: "decisions", rowKey: id });
    expect(broken.breakCount).toBe(1);
    expect(await docsFirstBreak(db)).toMatchObject({ break: "changed", row_key: id });

    await bypassingTriggers(db, [sql`update decisions set decision = 'allow', sign_transaction = true where id = ${id}`]);
    expect((await verifyChain(db)).ok).toBe(true);
  });

  it("names a forged row inserted into the sealed past", async () => {
    const forged = decisionRow({ decided_at: new Date("2026-10-10T09:00:00Z"), transaction_name: "vaults/v1/transactions/forged" });
    await db.insertInto("decisions").values(forged).execute();
    const report = await verifyChain(db);
    expect(report.ok).toBe(false);
    expect(report.breaks[0]).toMatchObject({ kind: "inserted", source: "decisions", rowKey: forged.id, position: null });
  });

  it("counts a row written after the last seal as pending, not as a break", async () => {
    const fresh = await backend.open();
    try {
      await fresh.db.insertInto("decisions").values(decisionRow()).execute();
      await sealPending(fresh.db);
      await fresh.db
        .insertInto("decisions")
        .values(decisionRow({ decided_at: new Date(Date.now() + 1_000) }))
        .execute();
      expect(await verifyChain(fresh.db)).toMatchObject({ ok: true, pending: 1, lastPosition: 1 });
    } finally {
      await fresh.close();
    }
  });

  it("names chain entries that were moved", async () => {
    await bypassingTriggers(db, [
      sql`update audit_chain set position = 1000 where position = 2`,
      sql`update audit_chain set position = 2 where position = 3`,
      sql`update audit_chain set position = 3 where position = 1000`,
    ]);
    const report = await verifyChain(db);
    expect(report.breaks[0]).toMatchObject({ kind: "reordered", position: 2, rowKey: ids[2] });
    await bypassingTriggers(db, [
      sql`update audit_chain set position = 1000 where position = 2`,
      sql`update audit_chain set position = 2 where position = 3`,
      sql`update audit_chain set position = 3 where position = 1000`,
    ]);
    expect((await verifyChain(db)).breaks[0]?.kind).toBe("inserted");
  });

  it("names a deleted row, and checks the chain against an anchored checkpoint", async () => {
    const { rows } = await sql<{ hash: Uint8Array }>`select hash from audit_chain where position = 4`.execute(db);
    const anchored = { position: 4, hash: Buffer.from(rows[0]!.hash).toString("hex") };
    const id = ids[1]!;
    await bypassingTriggers(db, [sql`delete from decisions where id = ${id}`]);
    const report = await verifyChain(db, { checkpoint: anchored });
    expect(report.breaks[0]).toMatchObject({ kind: "missing", source: "decisions", rowKey: id });

    const rewritten = await verifyChain(db, { checkpoint: { position: 4, hash: "ab".repeat(32) } });
    expect(rewritten.breaks.some((b) => b.kind === "changed" && b.position === 4)).toBe(true);
  });

  it("with --from, leaves rows gone before an anchored checkpoint to the archive and still checks their links", async () => {
    // The deleted row (2026-09-30, position 2) is before the cut and the anchor: archived, not missing.
    const from = new Date("2026-10-01T00:00:00Z");
    const cut = await verifyChain(db, { from, checkpoint: { position: 4, hash: "ab".repeat(32) } });
    expect(cut.breaks.filter((b) => b.kind === "missing")).toEqual([]);
    expect(cut.breaks.some((b) => b.kind === "changed" && b.position === 4)).toBe(true);
    expect(cut.breaks.some((b) => b.kind === "inserted")).toBe(true);

    // An anchor before it does not cover it: the date alone archives nothing.
    const { rows } = await sql<{ hash: Uint8Array }>`select hash from audit_chain where position = 1`.execute(db);
    const early = await verifyChain(db, { from, checkpoint: { position: 1, hash: Buffer.from(rows[0]!.hash).toString("hex") } });
    expect(early.breaks.filter((b) => b.kind === "missing")).toEqual([expect.objectContaining({ position: 2, rowKey: ids[1] })]);
  });
});
