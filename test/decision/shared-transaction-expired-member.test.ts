/**
 * A delivery whose deadline passed while it waited for a shared transaction (in the queue, or for a
 * pooled connection) has answered 503 already: it must leave the transaction, not fail it. Before
 * the fix the transaction's guard was expired from the start, so the checkout was refused, every
 * other member's first attempt failed, and each decided again alone (outside the limit on shared
 * transactions): under load, when waits are long, no batch succeeded and every decision ran twice.
 */
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DatabaseHandle, type Db } from "../../src/db/connect.js";
import { migrateToLatest } from "../../src/db/migrate.js";
import { withinDeadline } from "../../src/decision/deadline.js";
import { readArgs, writeArgs } from "../../src/decision/session-args.js";
import { withDecisionSession } from "../../src/decision/session.js";
import { allowDecision } from "../support/decision-rows.js";
import { createTestDatabase, type TestDatabase } from "../support/postgres.js";

const newName = () => `vaults/v1/transactions/${randomUUID()}`;

function decideMember(db: Db, name: string, budgetMs: number, beforeWrite?: () => Promise<void>) {
  const key = `group-${randomUUID()}`;
  const row = allowDecision(name);
  let attempts = 0;
  return withinDeadline(budgetMs, performance.now(), (deadline) =>
    withDecisionSession(db, deadline, async (session) => {
      attempts++;
      await session.read(readArgs(name, [key], [], row.decidedAt, true));
      await beforeWrite?.();
      await session.write(writeArgs({ decision: row, charges: [{ transferIndex: 0, key, amount: "1" }] }));
    }),
  ).then((r) => ({ done: r.done, attempts }));
}

for (const backend of ["postgres", "pglite"] as const) {
  describe(`a member whose deadline passed before its shared transaction began (${backend})`, () => {
    let tdb: TestDatabase | undefined;
    let handle: DatabaseHandle;

    beforeAll(async () => {
      if (backend === "postgres") {
        tdb = await createTestDatabase();
        // One connection: one shared transaction under way at a time, so deliveries that wait share the next.
        handle = await openDatabase({ url: tdb.url, maxConnections: 1 });
      } else {
        handle = await openDatabase({ dataDir: ":memory:" });
        await migrateToLatest(handle.db);
      }
    });
    afterAll(async () => {
      await handle?.close();
      await tdb?.drop();
    });

    it("leaves it; the others share it and commit, each at its first attempt", async () => {
      let release!: () => void;
      const first = decideMember(handle.db, newName(), 10_000, () => new Promise<void>((r) => (release = r)));
      await sleep(50);
      const expiring = newName();
      const others = [newName(), newName(), newName()];
      const decided = [decideMember(handle.db, expiring, 100), ...others.map((name) => decideMember(handle.db, name, 10_000))];
      await sleep(300); // the first member's deadline passes while all four wait
      release();
      await first;
      const [late, ...rest] = await Promise.all(decided);
      expect(late!.done).toBe(false);
      expect(rest.map((r) => r.done)).toEqual([true, true, true]);
      expect(rest.map((r) => r.attempts)).toEqual([1, 1, 1]);
      const { rows } = await sql<{ name: string; xid: string }>`
        select transaction_name as name, written_xid::text as xid from decisions where transaction_name = any(${[expiring, ...others]}::text[])`.execute(handle.db);
      expect(rows.map((r) => r.name).sort()).toEqual([...others].sort());
      expect(new Set(rows.map((r) => r.xid)).size).toBe(1);
    });
  });
}
