/**
 * `velocity_voids.database_user` is "the database user it ran as
 * (the server's session_user, which the command cannot choose)", but it was only the column's
 * default, and the writer may insert every column of a chained table but `seq` and `written_xid`:
 * whoever holds the writer's login (as `countersign velocity void` does) could record a void as
 * run by another database user. The database now sets it, whatever the insert says.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { writerDatabase } from "../../support/audit/logins.js";

describe("velocity_voids.database_user", () => {
  const suite = writerDatabase();

  it("is the session's database user, whatever the insert names", async () => {
    const id = randomUUID();
    await sql`insert into velocity_voids (id, at, transaction_name, charges, operator, reason, database_user)
      values (${id}::uuid, now(), 'vaults/v1/transactions/t1', 1, 'alice', 'never broadcast', 'countersign_owner')`.execute(suite.writer.db);
    const { rows } = await sql<{ database_user: string }>`select database_user from velocity_voids where id = ${id}::uuid`.execute(suite.tdb.handle.db);
    expect(rows).toEqual([{ database_user: suite.login.name }]);
  });
});
