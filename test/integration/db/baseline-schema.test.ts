/**
 * The schema `migrate` builds on an empty database is the one recorded in
 * test/fixtures/schema/expected-schema.sql, object for object (pg_dump --schema-only, normalised by
 * test/support/schema-dump.ts). A change to the schema changes the fixture in the same commit.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, serverUrl, type TestDatabase } from "../../support/postgres.js";
import { dumpSchema, findPgDump, fixtureMajor, normaliseDump, serverMajor } from "../../support/schema-dump.js";

const fixture = readFileSync(new URL("../../fixtures/schema/expected-schema.sql", import.meta.url), "utf8");
const major = await serverMajor(serverUrl());
const pgDump = fixtureMajor(fixture) === major ? findPgDump(major) : undefined;
if (!pgDump) console.warn(`baseline schema: skipped, the fixture is pg_dump ${fixtureMajor(fixture)}'s and the server is Postgres ${major} (or no pg_dump ${major})`);

describe.skipIf(!pgDump)("the schema migrate builds", () => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.drop());

  it("equals the recorded schema, table, function, trigger, view and grant alike", () => {
    expect(dumpSchema(pgDump!, tdb.url)).toBe(normaliseDump(fixture));
  });
});
