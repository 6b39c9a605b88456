/**
 * SQL NULL and JSON `null` in a nullable jsonb column of a chained table print alike in the
 * canonical row, so they hash alike (found by a review: the owner turned a sealed row's SQL NULL
 * trace into JSON null and verify saw nothing). Migration 20261125T0800_audit_json_nulls refuses
 * JSON `null` in those columns; the service writes SQL NULL for an absent value.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertDecision, type DecisionRow } from "../../src/audit/decision-rows.js";
import { sealPending } from "../../src/audit/sealer.js";
import { verifyChain } from "../../src/audit/verify.js";
import type { DatabaseHandle, Db } from "../../src/db/connect.js";
import { writeArgs } from "../../src/decision/session-args.js";
import { decisionRow } from "../support/decision-rows.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";
import { createLogin, type Login } from "./logins.js";

const name = () => `vaults/v1/transactions/${randomUUID()}`;

/** A decision as the decision path records it, without evidence (no trace, no shadow). */
function serviceRow(): DecisionRow {
  return {
    id: randomUUID(), decidedAt: new Date(), transactionName: name(), vault: "vaults/v1", decision: "deny", httpStatus: 200,
    replayed: false, replayOf: null, policyVersion: "test", policyDigest: "0".repeat(64), matchedRules: [], reasons: ["no"],
    facts: [], transaction: {}, contentDigest: "x", requestId: randomUUID(), durationMs: 1,
  };
}

describe("JSON null in a nullable json column of a chained table", () => {
  let tdb: TestDatabase;
  let db: Db;
  let login: Login;
  let writer: DatabaseHandle;
  beforeAll(async () => {
    tdb = await createTestDatabase();
    db = tdb.handle.db;
    login = await createLogin("countersign_writer");
    writer = await login.open(tdb.url);
  });
  afterAll(async () => {
    await writer?.close();
    await tdb?.drop();
    await login?.drop();
  });

  it("is refused in every such column, from the owner and from the writer", async () => {
    const { rows } = await sql<{ name: string }>`
      select conname::text as name from pg_constraint where conrelid in ('decisions'::regclass, 'events'::regclass) and conname like '%not_json_null' order by 1`.execute(db);
    expect(rows.map((r) => r.name)).toEqual([
      "decisions_shadow_matched_rules_not_json_null",
      "decisions_trace_not_json_null",
      "decisions_velocity_windows_not_json_null",
      "events_details_not_json_null",
    ]);
    for (const who of [db, writer.db]) {
      for (const column of ["trace", "velocity_windows", "shadow_matched_rules"]) {
        await expect(who.insertInto("decisions").values(decisionRow({ transaction_name: name(), [column]: "null" })).execute()).rejects.toThrow(/not_json_null/);
      }
      await expect(sql`insert into events (id, received_at, vault, type, resource, payload, body, signature, details)
        values (${randomUUID()}, now(), 'vaults/v1', 'TRANSACTION_CREATED', ${name()}, '{}', '\\x7b7d'::bytea, 'sig', 'null')`.execute(who)).rejects.toThrow(/not_json_null/);
    }
  });

  it("cannot replace a sealed row's SQL NULL, even with triggers off", async () => {
    const row = decisionRow({ transaction_name: name(), trace: null });
    await db.insertInto("decisions").values(row).execute();
    expect(await sealPending(db)).toBe(1);
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`set local session_replication_role = replica`.execute(trx);
        await sql`update decisions set trace = 'null'::jsonb where id = ${row.id}`.execute(trx);
      }),
    ).rejects.toThrow(/decisions_trace_not_json_null/);
    expect((await verifyChain(db)).ok).toBe(true);
  });

  it("is never what the service writes for an absent trace, window list or shadow verdict", async () => {
    const viaFunction = serviceRow();
    await sql`select countersign_decision_write(${JSON.stringify(writeArgs({ decision: viaFunction }))}::jsonb, 60000)`.execute(writer.db);
    const viaInsert = serviceRow();
    await insertDecision(writer.db, viaInsert);
    const { rows } = await sql<{ nulls: boolean }>`
      select trace is null and velocity_windows is null and shadow_matched_rules is null as nulls
      from decisions where id in (${viaFunction.id}, ${viaInsert.id})`.execute(db);
    expect(rows).toEqual([{ nulls: true }, { nulls: true }]);
  });
});
