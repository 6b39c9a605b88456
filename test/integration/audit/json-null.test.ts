/**
 * SQL NULL and JSON `null` in a json or jsonb column print alike in the canonical row, so a sealed
 * digest cannot say which the row held (the owner turned a sealed row's SQL NULL
 * into JSON null and verify said intact). The service writes SQL NULL for an absent value, so
 * `audit verify` and the audit guide's query report every JSON `null` in a sealed row (`json_null`),
 * naming the table, the key and the column.
 */
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { latestCheckpoint } from "../../../src/audit/checkpoint.js";
import { sealPending } from "../../../src/audit/sealer.js";
import { verifyChain } from "../../../src/audit/verify.js";
import type { Db } from "../../../src/database.js";
import { parseEvent } from "../../../src/events/event.js";
import { storeEvent } from "../../../src/events/store.js";
import { runCli } from "../../support/cli.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";
import { docsFirstBreak } from "../../support/docs.js";
import { name, seedTrail, VAULT } from "../../support/audit/trail.js";

/** As the schema's owner with triggers off (session_replication_role = replica). */
async function asOwner(db: Db, statements: ReturnType<typeof sql>[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    for (const s of statements) await s.execute(trx);
  });
}

/** An event without details, stored as the webhook stores it. */
async function storeEventWithoutDetails(db: Db, id: string): Promise<void> {
  const body = Buffer.from(JSON.stringify({ id, type: "TRANSACTION_CREATED", vault: VAULT, resourceType: "transaction", resource: name("t-otc") }));
  const parsed = parseEvent(body);
  if (!parsed.ok) throw parsed.error;
  await storeEvent(db, parsed.value.event, { body, signature: "test", payload: parsed.value.payload }, new Date("2026-11-10T09:45:00Z"));
}

async function positionOf(db: Db, source: string, rowKey: string): Promise<number> {
  const { rows } = await sql<{ position: string }>`select position::text as position from audit_chain where source = ${source} and row_key = ${rowKey}`.execute(db);
  return Number(rows[0]!.position);
}

/** A sealed decision whose column is SQL NULL. */
async function decisionWithSqlNull(db: Db, column: "trace" | "shadow_matched_rules"): Promise<string> {
  const { rows } = await sql<{ id: string }>`select id::text as id from decisions where ${sql.ref(column)} is null order by seq limit 1`.execute(db);
  return rows[0]!.id;
}

describe("JSON null in a json or jsonb column of a chained table", () => {
  let tdb: TestDatabase;
  let db: Db;
  beforeEach(async () => {
    tdb = await createTestDatabase();
    db = tdb.handle.db;
    await seedTrail(db);
    await storeEventWithoutDetails(db, "ev-plain");
    await sealPending(db);
  });
  afterEach(async () => tdb?.drop());

  it("is never in the honest rows of real decisions and events, whose absent values are SQL NULL", async () => {
    const { rows } = await sql<{ traces: number; shadows: number; details: number; json_nulls: number }>`
      select
        (select count(*) filter (where trace is null) from decisions)::int as traces,
        (select count(*) filter (where shadow_matched_rules is null) from decisions)::int as shadows,
        (select count(*) filter (where details is null) from events)::int as details,
        (select count(*) filter (where trace = 'null' or velocity_windows = 'null' or shadow_matched_rules = 'null') from decisions)::int
          + (select count(*) filter (where details = 'null') from events)::int as json_nulls`.execute(db);
    // SQL NULLs the owner could swap are there, and no JSON null.
    expect(rows[0]).toMatchObject({ shadows: 8, details: 4, json_nulls: 0 });
    expect(rows[0]!.traces).toBeGreaterThan(0);
    expect(await verifyChain(db)).toMatchObject({ ok: true, breakCount: 0, lastPosition: 12 });
    expect(await docsFirstBreak(db)).toBeUndefined();
  });

  it("names the table, key and column of a sealed decision whose SQL NULL trace the owner turned into JSON null", async () => {
    const id = await decisionWithSqlNull(db, "trace");
    const position = await positionOf(db, "decisions", id);
    await asOwner(db, [sql`update decisions set trace = 'null'::jsonb where id = ${id}`]);

    const report = await verifyChain(db);
    expect(report).toMatchObject({ ok: false, breakCount: 1 });
    expect(report.breaks).toEqual([expect.objectContaining({ kind: "json_null", position, source: "decisions", rowKey: id, column: "trace" })]);
    expect(await docsFirstBreak(db)).toMatchObject({ source: "decisions", row_key: id, break: "json_null (trace)" });

    const cli = await runCli(["audit", "verify"], { env: { DATABASE_URL: tdb.url } });
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain(`first break: json_null decisions ${id} at position ${position}: trace holds JSON null`);
  });

  it("names an event whose SQL NULL details the owner turned into JSON null", async () => {
    await asOwner(db, [sql`update events set details = 'null'::jsonb where id = 'ev-plain'`]);
    const position = await positionOf(db, "events", "ev-plain");
    expect((await verifyChain(db)).breaks).toEqual([expect.objectContaining({ kind: "json_null", position, source: "events", rowKey: "ev-plain", column: "details" })]);
    expect(await docsFirstBreak(db)).toMatchObject({ source: "events", row_key: "ev-plain", break: "json_null (details)" });
  });

  it("still names them after the owner turned every SQL NULL of the column into JSON null and declared it NOT NULL", async () => {
    await asOwner(db, [
      sql`update decisions set shadow_matched_rules = 'null'::jsonb where shadow_matched_rules is null`,
      sql`alter table decisions alter column shadow_matched_rules set not null`,
    ]);
    const report = await verifyChain(db);
    expect(report.breakCount).toBe(8);
    expect(new Set(report.breaks.map((b) => `${b.kind} ${b.source}.${b.column}`))).toEqual(new Set(["json_null decisions.shadow_matched_rules"]));
  });

  it("checks a row before --from's start against the anchor, as it checks its digest", async () => {
    const anchor = (await latestCheckpoint(db))!;
    const id = await decisionWithSqlNull(db, "shadow_matched_rules");
    const position = await positionOf(db, "decisions", id);
    expect(position).toBeLessThan(anchor.position);
    await asOwner(db, [sql`update decisions set shadow_matched_rules = 'null'::jsonb where id = ${id}`]);

    // Every entry was sealed before --from: the walk starts at the anchor and rows before it are looked up apart.
    const report = await verifyChain(db, { from: new Date(), checkpoint: anchor });
    expect(report.firstPosition).toBe(anchor.position);
    expect(report.breaks).toEqual([expect.objectContaining({ kind: "json_null", position, source: "decisions", rowKey: id, column: "shadow_matched_rules" })]);
  });
});
