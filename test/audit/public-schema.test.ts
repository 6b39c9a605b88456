/**
 * No login but the trail's owner creates objects in schema public (migration
 * 20261125T1700_public_schema_closed). Up to Postgres 14 every role could, and the owner's
 * SECURITY DEFINER functions pick the best-matching overload on a path that holds public: the
 * read-only auditor planted `public.hashtextextended(text, integer)`, the next seal (as the writer)
 * ran it with the owner's rights, and it granted the auditor UPDATE on decisions (found by a review
 * of the audit trail). The run's server is Postgres 15, so each database is opened the way 14 left
 * it: CREATE on public for PUBLIC.
 */
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/connect.js";
import { migrateToLatest } from "../../src/db/migrate.js";
import { createTestDatabase, serverUrl, databaseUrl, type TestDatabase } from "../support/postgres.js";
import { asSuperuser, createLogin, urlAs, type Login } from "./logins.js";

/** As Postgres 14 creates a database: schema public belongs to the bootstrap superuser, and every role may create in it. */
async function openAsPostgres14(url: string): Promise<void> {
  const c = await openDatabase({ url, maxConnections: 1 });
  try {
    await sql`alter schema public owner to postgres`.execute(c.db);
    await sql`grant create on schema public to public`.execute(c.db);
  } finally {
    await c.close();
  }
}

/** The overload `login` plants: run by the owner's sealer, it grants `login` what the trail keeps from it. */
const plant = (login: string) =>
  sql.raw(`
    create function public.hashtextextended(t text, seed integer) returns bigint language plpgsql as $$
    begin
      if current_user <> session_user then
        execute 'grant update, delete on public.decisions to ${login}';
        execute 'grant insert on public.audit_chain, public.final_decisions to ${login}';
      end if;
      return pg_catalog.hashtextextended(t, seed::bigint);
    end $$`);

describe("schema public on a database migrated by a superuser", () => {
  let tdb: TestDatabase;
  let auditor: Login;
  let writer: Login;

  beforeAll(async () => {
    tdb = await createTestDatabase({ migrate: false });
    await openAsPostgres14(tdb.url);
    await migrateToLatest(tdb.handle.db);
    auditor = await createLogin("countersign_auditor");
    writer = await createLogin("countersign_writer");
  });
  afterAll(async () => {
    await tdb?.drop();
    await auditor?.drop();
    await writer?.drop();
  });

  it("the auditor cannot plant a function the owner's sealer would run with the owner's rights", async () => {
    const asAuditor = await auditor.open(tdb.url);
    const asWriter = await writer.open(tdb.url);
    try {
      const planted = await plant(auditor.name).execute(asAuditor.db).then(() => null, (error: unknown) => error);
      // What every replica's sealer runs each second, as the writer.
      await sql`select audit_seal(5000)`.execute(asWriter.db);
      const { rows } = await sql<{ update: boolean; chain: boolean }>`
        select has_table_privilege(${auditor.name}, 'public.decisions', 'UPDATE') as update,
          has_table_privilege(${auditor.name}, 'public.audit_chain', 'INSERT') as chain`.execute(tdb.handle.db);
      expect(rows[0]).toEqual({ update: false, chain: false });
      expect(String(planted)).toMatch(/permission denied for schema public/);
    } finally {
      await asAuditor.close();
      await asWriter.close();
    }
  });

  it("the writer cannot plant one either, and the owner may still create tables", async () => {
    const asWriter = await writer.open(tdb.url);
    try {
      await expect(plant(writer.name).execute(asWriter.db)).rejects.toThrow(/permission denied for schema public/);
      await sql`create table owner_still_creates (id int)`.execute(tdb.handle.db);
    } finally {
      await asWriter.close();
    }
  });
});

describe("schema public on a database migrated by an owner who is no superuser", () => {
  const owner = `cs_owner_${randomBytes(4).toString("hex")}`;
  const database = `cs_test_${randomBytes(6).toString("hex")}`;
  let url: string;

  beforeAll(async () => {
    await asSuperuser(async (c) => {
      await c.query(`create role ${owner} login`);
      await c.query(`create database ${database} owner ${owner}`);
    });
    url = databaseUrl(serverUrl(), database);
    await openAsPostgres14(url);
  });
  afterAll(async () => {
    await asSuperuser(async (c) => {
      await c.query(`drop database if exists ${database} with (force)`);
      await c.query(`drop role if exists ${owner}`);
    });
  });

  it("is refused, naming what an administrator runs, and migrates once that is done; the owner keeps creating tables", async () => {
    const asOwner = await openDatabase({ url: urlAs(url, owner), maxConnections: 1, unboundedStatements: true });
    try {
      await expect(migrateToLatest(asOwner.db)).rejects.toThrow(/20261125T1700_public_schema_closed.*grant create on schema public to .*revoke create on schema public from public/s);
      // The remedy, run by the cluster's superuser in the database concerned.
      const admin = await openDatabase({ url, maxConnections: 1 });
      try {
        await sql.raw(`grant create on schema public to ${owner}; revoke create on schema public from public`).execute(admin.db);
      } finally {
        await admin.close();
      }
      await expect(migrateToLatest(asOwner.db)).resolves.toContain("20261125T1700_public_schema_closed");
      await sql`create table owner_still_creates (id int)`.execute(asOwner.db);
    } finally {
      await asOwner.close();
    }
  });
});
