/**
 * No login but the trail's owner creates objects in schema public (migrations/20261129T0000_baseline.ts). Up to Postgres 14 every role could, and the owner's
 * SECURITY DEFINER functions pick the best-matching overload on a path that holds public: the
 * read-only auditor planted `public.hashtextextended(text, integer)`, the next seal (as the writer)
 * ran it with the owner's rights, and it granted the auditor UPDATE on decisions. The run's server is Postgres 15, so each database is opened the way 14 left
 * it: CREATE on public for PUBLIC.
 */
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyChain } from "../../../src/audit/verify.js";
import { openDatabase } from "../../../src/database.js";
import { migrateToLatest } from "../../../src/db/migrate.js";
import { createTestDatabase, serverUrl, databaseUrl, type TestDatabase } from "../../support/postgres.js";
import { asSuperuser, createLogin, urlAs, type Login } from "../../support/audit/logins.js";

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
      const planted = await plant(auditor.name)
        .execute(asAuditor.db)
        .then(
          () => null,
          (error: unknown) => error,
        );
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
      await expect(migrateToLatest(asOwner.db)).rejects.toThrow(/20261129T0000_baseline.*grant create on schema public to .*revoke create on schema public from public/s);
      // The remedy, run by the cluster's superuser in the database concerned.
      const admin = await openDatabase({ url, maxConnections: 1 });
      try {
        await sql.raw(`grant create on schema public to ${owner}; revoke create on schema public from public`).execute(admin.db);
      } finally {
        await admin.close();
      }
      await expect(migrateToLatest(asOwner.db)).resolves.toContain("20261129T0000_baseline");
      await sql`create table owner_still_creates (id int)`.execute(asOwner.db);
    } finally {
      await asOwner.close();
    }
  });
});

describe("objects planted in schema public before it was closed", () => {
  let tdb: TestDatabase;
  let auditor: Login;
  let writer: Login;

  beforeAll(async () => {
    tdb = await createTestDatabase({ migrate: false });
    await openAsPostgres14(tdb.url);
    auditor = await createLogin("countersign_auditor");
    writer = await createLogin("countersign_writer");
    const asAuditor = await auditor.open(tdb.url);
    const asWriter = await writer.open(tdb.url);
    try {
      // On Postgres 14 both may: the auditor's overload for the sealer, the writer's operator and types.
      await plant(auditor.name).execute(asAuditor.db);
      await sql`create function public.text_eq_int(a text, b integer) returns boolean language sql as 'select a = b::text'`.execute(asWriter.db);
      await sql`create operator public.= (leftarg = text, rightarg = integer, function = public.text_eq_int)`.execute(asWriter.db);
      await sql`create domain public.amount_text as text`.execute(asWriter.db);
      await sql`create type public.row_text as (t text)`.execute(asWriter.db);
      await sql`create cast (public.row_text as text) with inout as implicit`.execute(asWriter.db);
    } finally {
      await asAuditor.close();
      await asWriter.close();
    }
  });
  afterAll(async () => {
    await tdb?.drop();
    await auditor?.drop();
    await writer?.drop();
  });

  it("refuse the migration, naming each object, its owner and the statements that drop it, and migrate once they are dropped", async () => {
    const refused = await migrateToLatest(tdb.handle.db).then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(refused?.message).toMatch(/^migration 20261129T0000_baseline failed: schema public holds objects/);
    const message = refused!.message;
    expect(message).toContain(`function public.hashtextextended(pg_catalog.text,integer) (owner ${auditor.name})`);
    expect(message).toContain(`function public.text_eq_int(pg_catalog.text,integer) (owner ${writer.name})`);
    expect(message).toContain(`operator public.=(pg_catalog.text,integer) (owner ${writer.name})`);
    expect(message).toContain(`domain public.amount_text (owner ${writer.name})`);
    expect(message).toContain(`type public.row_text (owner ${writer.name})`);
    expect(message).toContain(`cast (public.row_text AS pg_catalog.text) (owner ${writer.name})`);
    // Neither the array types nor the trail's own functions are named.
    expect(message).not.toMatch(/\[\]|audit_seal\(/);

    // The remedy as the message gives it, run by an administrator.
    const drops = /drop it: (.*?) or, if it is the trail's own/.exec(message)?.[1];
    expect(drops).toMatch(/^drop /);
    await sql.raw(drops!).execute(tdb.handle.db);
    await expect(migrateToLatest(tdb.handle.db)).resolves.toContain("20261129T0000_baseline");
  });
});

describe("audit verify and objects in schema public another login owns", () => {
  let tdb: TestDatabase;
  let auditor: Login;
  let writer: Login;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    auditor = await createLogin("countersign_auditor");
    writer = await createLogin("countersign_writer");
  });
  afterAll(async () => {
    await tdb?.drop();
    await auditor?.drop();
    await writer?.drop();
  });

  it("reports one given to another login after the migration, run by the auditor, and is clean once it is dropped", async () => {
    const asAuditor = await auditor.open(tdb.url);
    try {
      expect((await verifyChain(asAuditor.db)).ok).toBe(true);
      // An administrator's REASSIGN OWNED or ALTER ... OWNER puts a login's object back in public.
      await sql
        .raw(
          `create function public.hashtextextended(t text, seed integer) returns bigint language sql as 'select 0::bigint';
        alter function public.hashtextextended(text, integer) owner to ${writer.name}`,
        )
        .execute(tdb.handle.db);
      const report = await verifyChain(asAuditor.db);
      expect(report.ok).toBe(false);
      expect(report.breaks).toEqual([
        expect.objectContaining({
          kind: "planted",
          source: "function public.hashtextextended(pg_catalog.text,integer)",
          detail: expect.stringContaining(`owned by ${writer.name}`),
        }),
      ]);
      await sql`drop function public.hashtextextended(text, integer)`.execute(tdb.handle.db);
      expect((await verifyChain(asAuditor.db)).ok).toBe(true);
    } finally {
      await asAuditor.close();
    }
  });
});
