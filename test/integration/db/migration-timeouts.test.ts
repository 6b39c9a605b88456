/**
 * Migrations run without the service's 10 s statement timeout: one that fills a table from the
 * audit trail takes longer on a large trail, and a migration that
 * fails on it keeps every replica from starting. The service's own connections keep the timeout.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/database.js";
import { migrateAsOwner } from "../../../src/db/migrate.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";

describe("the statement timeout of migrations", () => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase({ migrate: false });
  });
  afterAll(async () => tdb?.drop());

  const statementTimeout = async (options: { unboundedStatements?: boolean }) => {
    const handle = await openDatabase({ url: tdb.url, maxConnections: 1, ...options });
    try {
      const { rows } = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(handle.db);
      return rows[0]!.statement_timeout;
    } finally {
      await handle.close();
    }
  };

  it("is 10 s on the service's connections and none on a migration's", async () => {
    expect(await statementTimeout({})).toBe("10s");
    expect(await statementTimeout({ unboundedStatements: true })).toBe("0");
  });

  it("migrates through a connection of its own to the service's server, not through the service's pool", async () => {
    const pool = await openDatabase({ url: tdb.url, maxConnections: 1 });
    await pool.close(); // were the migration to use it, it would fail
    const applied = await migrateAsOwner(pool.db, undefined, tdb.url);
    expect(applied).toContain("20261129T0000_baseline");
  });
});
