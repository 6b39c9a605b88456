/**
 * A member of a shared transaction whose name or window-group lock is held outside this process
 * (another replica deciding the same wallet or name, a void, a review action) must not hold up the
 * other members: they share its transaction, not its wait. Before the fix the batch read waited in
 * Postgres for that lock, with every member's locks held, until the earliest member's deadline
 * destroyed the transaction: that member answered 503 although nothing of its own was contended.
 */
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installStatementRecorder, type StatementRecorder } from "../../bench/capture.js";
import { openDatabase, type DatabaseHandle, type Db } from "../../src/db/connect.js";
import { withinDeadline } from "../../src/decision/deadline.js";
import { readArgs, writeArgs } from "../../src/decision/session-args.js";
import { withDecisionSession } from "../../src/decision/session.js";
import { groupHashHex, lockIdOfHash } from "../../src/velocity/group-hash.js";
import { allowDecision } from "../support/decision-rows.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";

interface Member {
  name: string;
  key: string;
  budgetMs: number;
  beforeWrite?: () => Promise<void>;
}

const newName = () => `vaults/v1/transactions/${randomUUID()}`;
const newMember = (budgetMs: number): Member => ({ name: newName(), key: `group-${randomUUID()}`, budgetMs });

/** One decision's transaction as decide() runs it: read under its name's and group's locks, then the row and a charge. */
function decideMember(db: Db, m: Member) {
  const row = allowDecision(m.name);
  const started = performance.now();
  return withinDeadline(m.budgetMs, started, (deadline) =>
    withDecisionSession(db, deadline, async (session) => {
      await session.read(readArgs(m.name, [m.key], [], row.decidedAt, true));
      await m.beforeWrite?.();
      await session.write(writeArgs({ decision: row, charges: [{ transferIndex: 0, key: m.key, amount: "1" }] }));
    }),
  ).then((r) => ({ done: r.done, ms: performance.now() - started }));
}

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

  /** Another process's transaction holding `lockSql` for `holdMs`. */
  async function heldElsewhere(lockSql: string, value: string, holdMs: number): Promise<{ released: Promise<void> }> {
    const other = new pg.Client({ connectionString: tdb.url });
    await other.connect();
    await other.query("begin");
    await other.query(lockSql, [value]);
    const released = sleep(holdMs).then(async () => {
      await other.query("commit");
      await other.end();
    });
    return { released };
  }

  async function committed(names: string[]): Promise<string[]> {
    const { rows } = await sql<{ name: string }>`select transaction_name as name from decisions where transaction_name = any(${names}::text[])`.execute(tdb.handle.db);
    return rows.map((r) => r.name).sort();
  }

  it("the shared read takes no lock it would wait for: a member whose lock is held elsewhere comes back busy, at once", async () => {
    const client = new pg.Client({ connectionString: tdb.url });
    await client.connect();
    const busyKey = `group-${randomUUID()}`;
    const { released } = await heldElsewhere("select pg_advisory_xact_lock($1::int8)", lockIdOfHash(groupHashHex(busyKey)).toString(), 300);
    try {
      const now = new Date();
      const read = (name: string, key: string) => readArgs(name, [key], [], now, true);
      const call = (reads: unknown[]) => client.query("select * from countersign_decision_read_batch_nowait($1::jsonb, 5000)", [JSON.stringify(reads)]);
      const [a, b] = [newName(), newName()];
      await expect(call([read(a, "g1"), read(a, "g2")])).rejects.toThrow(/names one transaction twice/);
      await expect(call([read(a, "g1"), read(b, "g1")])).rejects.toThrow(/shares a window group/);
      await client.query("begin");
      const started = performance.now();
      const { rows } = await call([read(a, `group-${randomUUID()}`), read(b, busyKey)]);
      expect(performance.now() - started).toBeLessThan(200);
      expect(rows.map((r: { ord: number; busy: boolean }) => [r.ord, r.busy])).toEqual([[0, false], [1, true]]);
      await client.query("rollback");
    } finally {
      await released;
      await client.end();
    }
  });

  for (const what of ["window group", "transaction name"] as const) {
    it(`costs the others neither their answer nor their time (${what} held elsewhere)`, async () => {
      const free = newMember(1_000);
      const contended = newMember(6_000);
      const { released } = await (what === "window group"
        ? heldElsewhere("select pg_advisory_xact_lock($1::int8)", lockIdOfHash(groupHashHex(contended.key)).toString(), 2_500)
        : heldElsewhere("select pg_advisory_xact_lock(hashtextextended('decision:' || $1::text, 0))", contended.name, 2_500));
      // A first decision holds the only transaction while the two queue: they then share the next.
      let release!: () => void;
      const first = decideMember(oneConnection.db, { ...newMember(10_000), beforeWrite: () => new Promise<void>((r) => (release = r)) });
      await sleep(50);
      let f!: { done: boolean; ms: number };
      let c!: { done: boolean; ms: number };
      const statements = await recorder.capture(async () => {
        const decided = [decideMember(oneConnection.db, free), decideMember(oneConnection.db, contended)];
        await sleep(50);
        release();
        [f, c] = (await Promise.all(decided)) as [typeof f, typeof c];
        await first;
        await released;
      });
      // The two did share a transaction (its read), and the free one's answer did not wait for the lock.
      expect(statements.some((s) => s.text.includes("countersign_decision_read_batch"))).toBe(true);
      expect(f.done).toBe(true);
      expect(f.ms).toBeLessThan(500);
      expect(c.done).toBe(true);
      expect(await committed([free.name, contended.name])).toEqual([free.name, contended.name].sort());
    });
  }
});
