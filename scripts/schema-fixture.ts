/**
 * Writes test/fixtures/schema/expected-schema.sql: the schema `migrate` builds on an empty
 * database, as test/support/schema-dump.ts prints it. Needs a system Postgres with its pg_dump
 * (Debian's postgresql package); run with `npx tsx scripts/schema-fixture.ts`.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { openDatabase } from "../src/database.js";
import { migrateToLatest } from "../src/db/migrate.js";
import { findPostgresBinaries, startLocalCluster } from "../test/support/local-cluster.js";
import { dumpSchema, findPgDump, fixtureHeader, serverMajor } from "../test/support/schema-dump.js";

const FIXTURE = fileURLToPath(new URL("../test/fixtures/schema/expected-schema.sql", import.meta.url));

process.env.TEST_POSTGRES_BINARIES ??= "system";
const binDir = findPostgresBinaries();
if (!binDir) throw new Error("no system Postgres server binaries (apt-get install postgresql)");
const cluster = await startLocalCluster(binDir);
try {
  const handle = await openDatabase({ url: cluster.url, maxConnections: 1, unboundedStatements: true });
  try {
    await migrateToLatest(handle.db);
  } finally {
    await handle.close();
  }
  const major = await serverMajor(cluster.url);
  const pgDump = findPgDump(major);
  if (!pgDump) throw new Error(`no pg_dump of major ${major}`);
  writeFileSync(FIXTURE, `${fixtureHeader(major)}\n${dumpSchema(pgDump, cluster.url)}`);
  console.log(`wrote ${FIXTURE} (Postgres ${major})`);
} finally {
  await cluster.stop();
}
