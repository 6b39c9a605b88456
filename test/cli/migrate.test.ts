import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";

describe("countersign migrate", () => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase({ migrate: false });
  });
  afterAll(async () => tdb?.drop());

  it("applies every migration to an empty database once, then has nothing to do", async () => {
    const env = { DATABASE_URL: tdb.url };
    const first = await runCli(["migrate"], { env });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^applied: 20261121T1000_decisions, /m);
    const tables = await tdb.handle.db.introspection.getTables();
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(["decisions", "velocity_charges", "address_book_entries", "events"]));
    const second = await runCli(["migrate"], { env });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("database is up to date");
  });
});
