import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../support/cli.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { scratchDir } from "../../support/scratch.js";
import { appliedEveryMigration } from "../../support/migrations.js";

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
    expect(first.stdout).toContain(appliedEveryMigration());
    const tables = await tdb.handle.db.introspection.getTables();
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(["decisions", "velocity_charges", "address_book_entries", "events"]));
    const second = await runCli(["migrate"], { env });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("database is up to date");
  });

  it("alone creates an embedded database: a read-only command without DATABASE_URL refuses rather than read a fresh empty one", async () => {
    // An empty data directory holds no database either.
    for (const dataDir of [path.join(scratchDir("nodb"), "data"), scratchDir("emptydir")]) {
      for (const args of [
        ["audit", "verify"],
        ["audit", "checkpoint"],
        ["policy", "replay", "--policies", "policies"],
      ]) {
        const run = await runCli(args, { env: { COUNTERSIGN_DATA_DIR: dataDir } });
        expect(run.code).toBe(1);
        expect(run.stderr).toContain(`DATABASE_URL is unset and there is no embedded database at ${dataDir}`);
      }
      expect(existsSync(path.join(dataDir, "pgdata"))).toBe(false);
    }
  });

  it("says why it could not migrate: a refused connection, a database that does not exist", async () => {
    const refused = await runCli(["migrate"], { env: { DATABASE_URL: "postgres://countersign@127.0.0.1:1/countersign" } });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^countersign: migrations could not run: .*ECONNREFUSED 127\.0\.0\.1:1/m);
    const missing = new URL(tdb.url);
    missing.pathname = "/countersign_no_such_database";
    const absent = await runCli(["migrate"], { env: { DATABASE_URL: missing.toString() } });
    expect(absent.code).toBe(1);
    expect(absent.stderr).toMatch(/^countersign: migrations could not run: database "countersign_no_such_database" does not exist/m);
  });
});
