/**
 * migrations/20261125T0900_final_decisions: the decision read takes a name's final decision from
 * `final_decisions` by key instead of searching every month of `decisions`. On a database that
 * already holds decisions, the migration registers each name's first allow or deny (not a repeat,
 * not a defer), whatever month it is in; a registered final whose row is gone fails the read rather
 * than answering as undecided. On both databases countersign runs on.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { openDatabase, type Db } from "../../src/db/connect.js";
import { createMigrator, migrateToLatest } from "../../src/db/migrate.js";
import { decisionRow } from "../support/decision-rows.js";
import { createTestDatabase } from "../support/postgres.js";

const MIGRATION = "20261125T0900_final_decisions";
const DAY = 86_400_000;

const fresh = [
  {
    name: "a Postgres server",
    open: async () => {
      const tdb = await createTestDatabase({ migrate: false });
      return { db: tdb.handle.db, close: () => tdb.drop() };
    },
  },
  {
    name: "embedded PGlite",
    open: async () => {
      const handle = await openDatabase({ dataDir: ":memory:" });
      return { db: handle.db, close: () => handle.close() };
    },
  },
];

async function migrateToJustBefore(db: Db, name: string): Promise<void> {
  const migrator = createMigrator(db);
  const names = (await migrator.getMigrations()).map((m) => m.name).filter((n) => n < name);
  const result = await migrator.migrateTo(names.at(-1)!);
  if (result.error) throw result.error;
}

/** What the decision read finds as the name's final decision (its id), or null. */
async function finalOf(db: Db, name: string): Promise<string | null> {
  const args = JSON.stringify({ name, failedStates: "{}", evaluate: false });
  const { rows } = await sql<{ final: { id: string } | null }>`select final from countersign_decision_read(${args}::jsonb, 5000)`.execute(db);
  return rows[0]?.final?.id ?? null;
}

async function insert(db: Db, overrides: Record<string, unknown>): Promise<string> {
  const row = decisionRow(overrides);
  await db.insertInto("decisions").values(row).execute();
  return row.id;
}

describe.each(fresh)("final decisions by key, on $name", ({ open }) => {
  it("registers each name's first allow or deny when it migrates, from any month, and reads it by key after", async () => {
    const { db, close } = await open();
    try {
      await migrateToJustBefore(db, MIGRATION);
      const now = Date.now();
      const decided = `vaults/v1/transactions/${randomUUID()}`;
      await insert(db, { transaction_name: decided, decision: "defer", sign_transaction: null, http_status: 503, decided_at: new Date(now - 45 * DAY) });
      const first = await insert(db, { transaction_name: decided, decision: "deny", sign_transaction: false, decided_at: new Date(now - 40 * DAY) });
      await insert(db, { transaction_name: decided, decision: "deny", sign_transaction: false, replayed: true, decided_at: new Date(now - 39 * DAY) });
      await insert(db, { transaction_name: decided, decision: "allow", sign_transaction: true, decided_at: new Date(now) });
      const repeatedOnly = `vaults/v1/transactions/${randomUUID()}`;
      await insert(db, { transaction_name: repeatedOnly, decision: "allow", sign_transaction: true, replayed: true });
      const deferred = `vaults/v1/transactions/${randomUUID()}`;
      await insert(db, { transaction_name: deferred, decision: "defer", sign_transaction: null, http_status: 503 });

      await migrateToLatest(db);
      expect(await finalOf(db, decided)).toBe(first);
      expect(await finalOf(db, repeatedOnly)).toBeNull();
      expect(await finalOf(db, deferred)).toBeNull();
      const registered = await db.selectFrom("final_decisions").select(["transaction_name", "decision_id"]).execute();
      expect(registered).toEqual([{ transaction_name: decided, decision_id: first }]);
    } finally {
      await close();
    }
  });

  it("fails the read when a registered final's row is not in decisions, rather than answer as undecided", async () => {
    const { db, close } = await open();
    try {
      await migrateToLatest(db);
      const name = `vaults/v1/transactions/${randomUUID()}`;
      await sql`insert into final_decisions (transaction_name, decision_id, decided_at) values (${name}, ${randomUUID()}, now())`.execute(db);
      await expect(finalOf(db, name)).rejects.toThrow(/is not in decisions/);
    } finally {
      await close();
    }
  });

  it("keeps one final per name, and never changes it", async () => {
    const { db, close } = await open();
    try {
      await migrateToLatest(db);
      const name = `vaults/v1/transactions/${randomUUID()}`;
      const id = await insert(db, { transaction_name: name, decision: "deny", sign_transaction: false });
      const row = await db.selectFrom("decisions").select("decided_at").where("id", "=", id).executeTakeFirstOrThrow();
      await sql`insert into final_decisions (transaction_name, decision_id, decided_at) values (${name}, ${id}, ${row.decided_at})`.execute(db);
      await expect(sql`insert into final_decisions (transaction_name, decision_id, decided_at) values (${name}, ${randomUUID()}, now())`.execute(db)).rejects.toThrow(/duplicate key/);
      await expect(sql`update final_decisions set decision_id = ${randomUUID()} where transaction_name = ${name}`.execute(db)).rejects.toThrow();
      await expect(sql`delete from final_decisions where transaction_name = ${name}`.execute(db)).rejects.toThrow();
      expect(await finalOf(db, name)).toBe(id);
    } finally {
      await close();
    }
  });
});
