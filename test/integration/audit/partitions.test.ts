/**
 * `decisions` is partitioned by month: each row lands in its month's partition with its seq in
 * insert order, the append-only guard holds on the table and on each partition (UPDATE, DELETE,
 * TRUNCATE refused), and the checks that stand for foreign keys refuse a dangling reference.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../../src/database.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { decisionRow } from "../../support/decision-rows.js";

describe("decisions partitioned by month", () => {
  let tdb: TestDatabase;
  let db: Db;
  const before = [
    decisionRow({ decided_at: new Date("2026-08-03T10:00:00Z"), transaction_name: "vaults/v1/transactions/a" }),
    decisionRow({ decided_at: new Date("2026-11-20T10:00:00Z"), transaction_name: "vaults/v1/transactions/b", decision: "defer", sign_transaction: null, http_status: 503 }),
  ];

  beforeAll(async () => {
    tdb = await createTestDatabase();
    db = tdb.handle.db;
    // Months the rows fall in, whatever today is (the migration creates this month and three ahead).
    for (const month of ["2026-08-01", "2026-11-01"]) await sql`select decisions_create_month(${month}::date)`.execute(db);
    for (const row of before) await db.insertInto("decisions").values(row).execute();
    await db
      .insertInto("decisions")
      .values(decisionRow({ replayed: true, replay_of: before[0]!.id, decided_at: new Date("2026-11-20T11:00:00Z") }))
      .execute();
  });
  afterAll(async () => tdb?.drop());

  it("puts every row, its id, seq and content, in its month's partition", async () => {
    const { rows } = await sql<{ id: string; seq: string; decision: string; partition: string }>`
      select id, seq::text, decision, tableoid::regclass::text as partition from decisions order by seq`.execute(db);
    expect(rows.map((r) => [r.id, r.seq, r.decision, r.partition])).toEqual([
      [before[0]!.id, "1", "allow", "decisions_2026_08"],
      [before[1]!.id, "2", "defer", "decisions_2026_11"],
      [expect.any(String), "3", "allow", "decisions_2026_11"],
    ]);
    const next = decisionRow();
    await db.insertInto("decisions").values(next).execute();
    const seq = await db.selectFrom("decisions").select("seq").where("id", "=", next.id).executeTakeFirstOrThrow();
    expect(seq.seq).toBe("4");
  });

  it("still refuses UPDATE, DELETE and TRUNCATE, on the table and on a partition", async () => {
    await expect(sql`update decisions set decision = 'deny', sign_transaction = false`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from decisions`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate decisions cascade`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`update decisions_2026_11 set vault = 'x'`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate decisions_2026_08`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate decisions_default`.execute(db)).rejects.toThrow(/append-only/);
  });

  it("refuses a replay or a charge that refers to no decision", async () => {
    const ghost = "00000000-0000-4000-8000-00000000dead";
    await expect(
      db
        .insertInto("decisions")
        .values(decisionRow({ replayed: true, replay_of: ghost }))
        .execute(),
    ).rejects.toThrow(/refers to no decision/);
    await expect(
      sql`insert into velocity_groups (group_hash, group_key, first_charged_at) values (sha256('g'), 'g', now());
      `.execute(db),
    ).resolves.toBeDefined();
    await expect(
      sql`insert into velocity_charges (decision_id, transaction_name, vault, transfer_index, group_hash, amount, charged_at)
      values (${ghost}, 'vaults/v1/transactions/x', 'vaults/v1', 0, sha256('g'), 1, now())`.execute(db),
    ).rejects.toThrow(/refers to no decision/);
  });

  it("creates months ahead, and leaves a month the default partition already holds rows for", async () => {
    const { rows } = await sql<{ name: string }>`
      select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
      where i.inhparent = 'decisions'::regclass order by 1`.execute(db);
    const names = rows.map((r) => r.name);
    const month = (offset: number) => {
      const d = new Date();
      d.setUTCDate(1);
      d.setUTCMonth(d.getUTCMonth() + offset);
      return `decisions_${d.getUTCFullYear()}_${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
    };
    expect(names).toEqual(expect.arrayContaining([month(0), month(1), month(2), month(3), "decisions_default"]));

    // A month before every partition (a row dated far ahead is refused there: future-rows.test.ts).
    await db
      .insertInto("decisions")
      .values(decisionRow({ decided_at: new Date("2020-05-05T00:00:00Z") }))
      .execute();
    const { rows: made } = await sql<{ made: boolean }>`select decisions_create_month('2020-05-01') as made`.execute(db);
    expect(made[0]?.made).toBe(false);
    const { rows: where } = await sql<{ partition: string }>`
      select tableoid::regclass::text as partition from decisions where decided_at = '2020-05-05T00:00:00Z'`.execute(db);
    expect(where).toEqual([{ partition: "decisions_default" }]);
  });
});
