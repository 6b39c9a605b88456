/**
 * Verify and the service read the tables of schema public, never a same-named table that the
 * session's search_path finds first (the default path, "$user", public, puts a
 * schema named after the login first, and the database's owner held a pristine copy of the trail
 * there; the auditor's verify checked the copy while a decision was gone from public.decisions).
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { latestCheckpoint } from "../../../src/audit/checkpoint.js";
import { sealPending } from "../../../src/audit/sealer.js";
import { verifyChain, VerifyRefused } from "../../../src/audit/verify.js";
import { openDatabase, type DatabaseHandle } from "../../../src/database.js";
import { decisionRow } from "../../support/decision-rows.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { createLogin, urlAs, type Login } from "../../support/audit/logins.js";

const TRAIL = ["audit_sources", "audit_chain", "audit_seals", "decisions", "events", "reviews", "review_actions"];
const name = () => `vaults/v1/transactions/${randomUUID()}`;

describe("audit verify and a copy of the trail in a schema named after the auditor's login", () => {
  let tdb: TestDatabase;
  let login: Login;
  const handles: DatabaseHandle[] = [];
  const target = decisionRow({ decision: "allow", sign_transaction: true, transaction_name: name() });

  beforeAll(async () => {
    tdb = await createTestDatabase();
    login = await createLogin("countersign_auditor");
    const db = tdb.handle.db;
    for (const r of [target, decisionRow({ transaction_name: name() })]) await db.insertInto("decisions").values(r).execute();
    expect(await sealPending(db)).toBe(2);
    // The owner: a pristine copy in a schema named after the auditor's login, then the decision goes from the real table.
    await sql.raw(`create schema ${login.name}`).execute(db);
    for (const t of TRAIL) await sql.raw(`create table ${login.name}.${t} as select * from public.${t}`).execute(db);
    await sql.raw(`grant usage on schema ${login.name} to ${login.name}; grant select on all tables in schema ${login.name} to ${login.name}`).execute(db);
    await db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await sql`delete from public.decisions where id = ${target.id}`.execute(trx);
    });
  });
  afterAll(async () => {
    for (const h of handles) await h.close();
    await tdb?.drop();
    await login?.drop();
  });

  async function asAuditor(): Promise<DatabaseHandle> {
    // One connection, so that a session setting holds for verify's transaction.
    const handle = await openDatabase({ url: urlAs(tdb.url, login.name), maxConnections: 1 });
    handles.push(handle);
    return handle;
  }

  it("verifies public's tables and says so", async () => {
    const anchor = (await latestCheckpoint(tdb.handle.db))!;
    const report = await verifyChain((await asAuditor()).db, { checkpoint: anchor });
    expect(report).toMatchObject({ ok: false, schema: "public" });
    expect(report.breaks[0]).toMatchObject({ kind: "missing", rowKey: target.id });
  });

  it("refuses when the session's own path finds a trail table in another schema first", async () => {
    const auditor = await asAuditor();
    await sql`set search_path = "$user", public`.execute(auditor.db);
    const refusal = await verifyChain(auditor.db).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refusal).toBeInstanceOf(VerifyRefused);
    expect(refusal).toMatchObject({ code: "shadowed_table" });
    expect((refusal as Error).message).toContain(`${login.name}.audit_`);
    // What gets anchored is read the same way.
    expect(
      await latestCheckpoint(auditor.db).then(
        () => null,
        (e: unknown) => e,
      ),
    ).toMatchObject({ code: "shadowed_table" });
  });
});

describe("the service's session and a schema named after its login", () => {
  let tdb: TestDatabase;
  let login: Login;
  let writer: DatabaseHandle;
  beforeAll(async () => {
    tdb = await createTestDatabase();
    login = await createLogin("countersign_writer");
    await sql
      .raw(
        `create schema ${login.name}; create table ${login.name}.decisions (like public.decisions);
      grant usage on schema ${login.name} to ${login.name}; grant select, insert on ${login.name}.decisions to ${login.name}`,
      )
      .execute(tdb.handle.db);
    writer = await login.open(tdb.url);
  });
  afterAll(async () => {
    await writer?.close();
    await tdb?.drop();
    await login?.drop();
  });

  it("writes its decisions to public.decisions", async () => {
    const row = decisionRow({ transaction_name: name() });
    await writer.db.insertInto("decisions").values(row).execute();
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from public.decisions where id = ${row.id}`.execute(tdb.handle.db);
    expect(rows[0]?.n).toBe(1);
  });
});
