/**
 * A decision dated more than a day ahead of the database's clock does not land in
 * `decisions_default` (the writer's one row 14 months ahead kept that month out
 * of a partition for good, since `decisions_create_month` refuses a month the default partition
 * holds rows for). The trigger decisions_default_not_ahead (migrations/sql/triggers.sql).
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseHandle, Db } from "../../../src/database.js";
import { decisionRow } from "../../support/decision-rows.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { createLogin, type Login } from "../../support/audit/logins.js";

const name = () => `vaults/v1/transactions/${randomUUID()}`;

/** The first day of the UTC month `offset` months from now, and a time in it. */
function monthAhead(offset: number): { month: string; at: Date } {
  const d = new Date();
  const first = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + offset, 1));
  return { month: first.toISOString().slice(0, 10), at: new Date(first.getTime() + 86_400_000) };
}

describe("decisions dated far ahead", () => {
  let tdb: TestDatabase;
  let db: Db;
  let login: Login;
  let writer: DatabaseHandle;
  beforeAll(async () => {
    tdb = await createTestDatabase();
    db = tdb.handle.db;
    login = await createLogin("countersign_writer");
    writer = await login.open(tdb.url);
  });
  afterAll(async () => {
    await writer?.close();
    await tdb?.drop();
    await login?.drop();
  });

  it("are refused where no month holds them, so the month can still get its partition", async () => {
    const { month, at } = monthAhead(14);
    for (const who of [writer.db, db]) {
      await expect(
        who
          .insertInto("decisions")
          .values(decisionRow({ decided_at: at, transaction_name: name() }))
          .execute(),
      ).rejects.toThrow(/more than a day ahead of the database's clock/);
    }
    const { rows } = await sql<{ made: boolean }>`select decisions_create_month(${month}::date) as made`.execute(db);
    expect(rows[0]!.made).toBe(true);
    // Once the month is there, a row lands in it (the default partition's trigger is not on its way).
    await writer.db
      .insertInto("decisions")
      .values(decisionRow({ decided_at: at, transaction_name: name() }))
      .execute();
    const { rows: where } = await sql<{ partition: string }>`
      select tableoid::regclass::text as partition from decisions where decided_at = ${at}`.execute(db);
    expect(where).toEqual([{ partition: `decisions_${month.slice(0, 4)}_${month.slice(5, 7)}` }]);
  });

  it("still land in the default partition when dated in the past, or within a day ahead", async () => {
    const past = decisionRow({ decided_at: new Date("2020-03-03T03:00:00Z"), transaction_name: name() });
    await writer.db.insertInto("decisions").values(past).execute();
    // A day's margin: with the months around now detached, a row an hour ahead lands in the default partition.
    const { month } = monthAhead(0);
    const { month: next } = monthAhead(1);
    const soon = decisionRow({ decided_at: new Date(Date.now() + 3_600_000), transaction_name: name() });
    await db
      .transaction()
      .execute(async (trx) => {
        for (const m of [month, next]) await sql.raw(`alter table decisions detach partition decisions_${m.slice(0, 4)}_${m.slice(5, 7)}`).execute(trx);
        await trx.insertInto("decisions").values(soon).execute();
        const { rows } = await sql<{ id: string; partition: string }>`
        select id::text, tableoid::regclass::text as partition from decisions where id in (${past.id}, ${soon.id}) order by decided_at`.execute(trx);
        expect(rows).toEqual([
          { id: past.id, partition: "decisions_default" },
          { id: soon.id, partition: "decisions_default" },
        ]);
        throw new Rollback();
      })
      .catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });
  });
});

class Rollback extends Error {}
