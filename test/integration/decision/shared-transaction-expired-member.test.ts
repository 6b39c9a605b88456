/**
 * A delivery whose deadline passed while it waited for a shared transaction (in the queue, or for a
 * pooled connection) has answered 503 already: it must leave the transaction, not fail it. Before
 * the fix the transaction's guard was expired from the start, so the checkout was refused, every
 * other member's first attempt failed, and each decided again alone (outside the limit on shared
 * transactions): under load, when waits are long, no batch succeeded and every decision ran twice.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Db } from "../../../src/database.js";
import { backends } from "../../support/backends.js";
import { afterAHeldOne, newTransactionName } from "../../support/decision-sessions.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";

for (const backend of ["postgres", "pglite"] as const) {
  describe(`a member whose deadline passed before its shared transaction began (${backend})`, () => {
    let tdb: TestDatabase | undefined;
    let handle: { db: Db; close(): Promise<void> };

    beforeAll(async () => {
      if (backend === "postgres") {
        tdb = await createTestDatabase();
        // One connection: one shared transaction under way at a time, so deliveries that wait share the next.
        handle = await openDatabase({ url: tdb.url, maxConnections: 1 });
      } else {
        handle = await backends.find((b) => b.name === "embedded PGlite")!.open();
      }
    });
    afterAll(async () => {
      await handle?.close();
      await tdb?.drop();
    });

    it("leaves it; the others share it and commit, each at its first attempt", async () => {
      const expiring = newTransactionName();
      const others = [newTransactionName(), newTransactionName(), newTransactionName()];
      const members = [{ name: expiring, budgetMs: 100 }, ...others.map((name) => ({ name }))];
      // The late member's deadline passes while all four wait behind the held transaction.
      const heldPastTheDeadline = () => sleep(300);
      const { members: settled } = await afterAHeldOne(handle.db, members, heldPastTheDeadline);
      const [late, ...rest] = settled.map((s) => (s.status === "fulfilled" ? s.value : null));
      expect(late?.done).toBe(false);
      expect(rest).toEqual(others.map(() => ({ done: true, attempts: 1 })));
      const { rows } = await sql<{ name: string; xid: string }>`
        select transaction_name as name, written_xid::text as xid from decisions where transaction_name = any(${[expiring, ...others]}::text[])`.execute(handle.db);
      expect(rows.map((r) => r.name).sort()).toEqual([...others].sort());
      expect(new Set(rows.map((r) => r.xid)).size).toBe(1);
    });
  });
}
