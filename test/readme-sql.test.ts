/** Every SQL example in README.md runs against the real schema (a migrated Postgres database). */
import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "./support/postgres.js";

const README = readFileSync(path.resolve(import.meta.dirname, "../README.md"), "utf8");

function sqlStatements(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!);
  return blocks
    .flatMap((block) => block.split(/;\s*(?:\n|$)/))
    .map((statement) => statement.replace(/^\s*--.*$/gm, "").trim())
    .filter((statement) => statement.length > 0);
}

describe("README SQL examples", () => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.drop());

  const statements = sqlStatements(README);

  it("finds the examples", () => {
    expect(statements.length).toBeGreaterThanOrEqual(8);
  });

  it.each(statements.map((s) => [s.split("\n")[0]!, s]))("runs: %s", async (_first, statement) => {
    await expect(sql.raw(statement).execute(tdb.handle.db)).resolves.toBeDefined();
  });
});
