/**
 * A member of a shared transaction whose name or window-group lock is held outside this process
 * (another replica deciding the same wallet or name, a void, a review action) must not hold up the
 * other members: they share its transaction, not its wait. Before the fix the batch read waited in
 * Postgres for that lock, with every member's locks held, until the earliest member's deadline
 * destroyed the transaction: that member answered 503 although nothing of its own was contended.
 * Here the lock is held until the uncontended member has its answer: had the read waited for it,
 * that answer would have been its deadline's.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installStatementRecorder, type StatementRecorder } from "../../../bench/capture.js";
import { openDatabase, type DatabaseHandle } from "../../../src/database.js";
import { groupHashHex, lockIdOfHash } from "../../../src/velocity/group-hash.js";
import { decideMember, holdingTheTransaction, newTransactionName } from "../../support/decision-sessions.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";

describe("a member whose lock another process holds, in a shared transaction", () => {
  let tdb: TestDatabase;
  let oneConnection: DatabaseHandle;
  let recorder: StatementRecorder;

  beforeAll(async () => {
    recorder = installStatementRecorder();
    tdb = await createTestDatabase();
    // One connection: one shared transaction under way at a time, so deliveries that wait share the next.
    oneConnection = await openDatabase({ url: tdb.url, maxConnections: 1 });
  });
  afterAll(async () => {
    recorder?.uninstall();
    await oneConnection?.close();
    await tdb?.drop();
  });

  /** Another process's transaction holding a lock until `release` is called. */
  async function heldElsewhere(lockSql: string, value: string): Promise<{ release(): Promise<void> }> {
    const other = new pg.Client({ connectionString: tdb.url });
    await other.connect();
    await other.query("begin");
    await other.query(lockSql, [value]);
    return {
      release: async () => {
        await other.query("commit");
        await other.end();
      },
    };
  }

  async function committed(names: string[]): Promise<string[]> {
    const { rows } = await sql<{ name: string }>`select transaction_name as name from decisions where transaction_name = any(${names}::text[])`.execute(tdb.handle.db);
    return rows.map((r) => r.name).sort();
  }

  for (const what of ["window group", "transaction name"] as const) {
    it(`costs the others neither their answer nor a wait (${what} held elsewhere)`, async () => {
      const db = oneConnection.db;
      const free = { name: newTransactionName(), budgetMs: 2_000 };
      const contended = { name: newTransactionName(), key: `group-${randomUUID()}` };
      const held = await (what === "window group"
        ? heldElsewhere("select pg_advisory_xact_lock($1::int8)", lockIdOfHash(groupHashHex(contended.key)).toString())
        : heldElsewhere("select pg_advisory_xact_lock(hashtextextended('decision:' || $1::text, 0))", contended.name));
      let freeOutcome!: { done: boolean; attempts: number };
      let contendedDecided!: Promise<{ done: boolean; attempts: number }>;
      const statements = await recorder.capture(async () => {
        // A first decision holds the only shared transaction while the two queue (each as it is
        // called, before it awaits anything): they share the next.
        const first = holdingTheTransaction(db);
        await first.reading;
        const freeDecided = decideMember(db, free);
        contendedDecided = decideMember(db, contended);
        first.release();
        await first.decided;
        // Still held elsewhere: the free member's answer cannot have waited for it.
        freeOutcome = await freeDecided;
      });
      await held.release();
      expect(statements.some((s) => s.text.includes("countersign_decision_read_batch"))).toBe(true);
      expect(freeOutcome).toEqual({ done: true, attempts: 1 });
      expect((await contendedDecided).done).toBe(true);
      expect(await committed([free.name, contended.name])).toEqual([free.name, contended.name].sort());
    });
  }
});
