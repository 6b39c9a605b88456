/**
 * Found by a review: the down migration of 20261125T1300_velocity_voids recreated
 * `transaction_timeline` and granted the roles SELECT, but the owner's default privileges gave the
 * writer INSERT, UPDATE and DELETE on the new view too (the README: SELECT only on the views).
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMigrator } from "../../src/db/migrate.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";

describe("the down migration of velocity_voids", () => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.drop());

  it("leaves the writer SELECT only on transaction_timeline", async () => {
    const migrator = createMigrator(tdb.handle.db);
    const before = (await migrator.getMigrations()).map((m) => m.name).filter((n) => n < "20261125T1300_velocity_voids").at(-1)!;
    const down = await migrator.migrateTo(before);
    expect(down.error).toBeUndefined();
    const { rows } = await sql<{ privilege: string }>`
      select p as privilege from unnest(array['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) p
      where has_table_privilege('countersign_writer', 'transaction_timeline', p)`.execute(tdb.handle.db);
    expect(rows.map((r) => r.privilege)).toEqual(["SELECT"]);
  });
});
