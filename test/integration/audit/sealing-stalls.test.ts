/**
 * When sealing stops, it shows: `audit verify` fails on rows written longer ago than the grace
 * that are still not sealed (it used to count them as "not sealed yet" for ever), and the sealer
 * warns once its lock has been held elsewhere for longer than the grace, and says when it resumes.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sealPending, startSealer } from "../../../src/audit/sealer.js";
import { verifyChain } from "../../../src/audit/verify.js";
import { verifyOutcome } from "../../../src/audit/verify-outcome.js";
import { auditVerify } from "../../../src/commands/audit.js";
import type { Db } from "../../../src/database.js";
import type { Logger } from "../../../src/log.js";
import { backends } from "../../support/backends.js";
import { decisionRow } from "../../support/decision-rows.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";

describe.each(backends)("audit verify when sealing has stopped, on $name", (backend) => {
  let db: Db;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ db, close } = await backend.open());
  });
  afterAll(async () => close?.());

  it("fails on a row written more than five minutes ago that is still not sealed, and passes once it is", async () => {
    const stale = decisionRow({ decided_at: new Date(Date.now() - 6 * 60_000), transaction_name: `vaults/v1/transactions/${randomUUID()}` });
    await db.insertInto("decisions").values(stale).execute();
    await db
      .insertInto("decisions")
      .values(decisionRow({ transaction_name: `vaults/v1/transactions/${randomUUID()}` }))
      .execute();

    const report = await verifyChain(db);
    expect(report.ok).toBe(false);
    expect(report.breaks).toEqual([expect.objectContaining({ kind: "unsealed", source: "decisions", rowKey: stale.id, position: null })]);
    expect(report.pending).toBe(1);
    const lines: string[] = [];
    expect(
      await auditVerify(
        {},
        (o) => verifyOutcome(db, o),
        (line) => lines.push(line),
      ),
    ).toBe(1);
    expect(lines.join("\n")).toMatch(new RegExp(`unsealed decisions ${stale.id}: written more than 300 s ago and still not sealed`));

    await sealPending(db);
    expect(await verifyChain(db)).toMatchObject({ ok: true, pending: 0, lastPosition: 2 });
  });
});

describe("the sealer when its lock is held elsewhere", () => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.drop());

  it("warns once the lock has been held longer than the grace, and says when sealing resumes", async () => {
    const logged: { level: string; fields: Record<string, unknown>; msg: string }[] = [];
    const record = (level: string) => (fields: object, msg: string) => void logged.push({ level, fields: fields as Record<string, unknown>, msg });
    const logger: Logger = { debug: record("debug"), info: record("info"), warn: record("warn"), error: record("error") };
    const holder = new pg.Client({ connectionString: tdb.url });
    await holder.connect();
    await holder.query(`select pg_advisory_lock(hashtextextended('countersign:audit-sealer', 0))`);
    const sealer = startSealer({ db: tdb.handle.db, logger, intervalMs: 20, stallAfterMs: 300 });
    try {
      await tdb.handle.db.insertInto("decisions").values(decisionRow()).execute();
      await expect
        .poll(() => logged.filter((l) => l.fields.code === "audit_sealing_stalled"), { timeout: 5_000 })
        .toEqual([
          expect.objectContaining({
            level: "warn",
            fields: expect.objectContaining({ reason: "locked" }),
            msg: expect.stringMatching(/not being sealed: another session has held the sealer's lock/),
          }),
        ]);
      await holder.query(`select pg_advisory_unlock(hashtextextended('countersign:audit-sealer', 0))`);
      await expect.poll(() => logged.some((l) => l.fields.code === "audit_sealing_resumed"), { timeout: 5_000 }).toBe(true);
      expect((await sql`select 1 from audit_chain`.execute(tdb.handle.db)).rows).toHaveLength(1);
      expect(logged.filter((l) => l.fields.code === "audit_sealing_stalled")).toHaveLength(1);
    } finally {
      await sealer.stop();
      await holder.end();
    }
  });
});
