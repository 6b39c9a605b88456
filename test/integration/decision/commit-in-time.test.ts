/**
 * The write and its COMMIT leave in one round trip (src/decision/session.ts), so the service can no
 * longer hold the COMMIT back when the write comes back late: the server checks the deadline itself
 * (`countersign_decision_in_time`, migrations/sql/functions/decision-session.sql) between the write and the COMMIT.
 * Here the write waits on a lock the service cannot see — another transaction's uncommitted insert
 * of the same window group — until well past the deadline, and nothing may be committed after it.
 */
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../../src/database.js";
import { migrateToLatest } from "../../../src/db/migrate.js";
import { withinDeadline } from "../../../src/decision/deadline.js";
import { readArgs, writeArgs } from "../../../src/decision/session-args.js";
import { withDecisionSession } from "../../../src/decision/session.js";
import { groupHashHex } from "../../../src/velocity/group-hash.js";
import { allowDecision } from "../../support/decision-rows.js";
import { createTestDatabase, type TestDatabase } from "../../support/postgres.js";

const BUDGET_MS = 1_000;
/** The write is sent this long after the read (still in time, as the service checks)… */
const WRITE_AT_MS = 600;
/** …and blocked until this long after the start: past the deadline, short of its lock_timeout. */
const RELEASE_AT_MS = 1_250;

/** The checks' effect in plain SQL: in time, then past a 50 ms budget. */
async function checkAfterBudget(query: (text: string) => Promise<unknown>): Promise<unknown> {
  await query("begin");
  try {
    await query("select countersign_decision_in_time(50)");
    await query("select pg_sleep(0.1)");
    return await query("select countersign_decision_in_time(50)").then(
      () => null,
      (error: unknown) => error,
    );
  } finally {
    await query("rollback");
  }
}

describe("the write's COMMIT on a Postgres server", () => {
  let tdb: TestDatabase;

  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => {
    await tdb?.drop();
  });

  it("a write held past the deadline by a lock is rolled back, not committed, once the lock frees", async () => {
    const name = `vaults/v1/transactions/${randomUUID()}`;
    const key = `group-${randomUUID()}`;
    const row = allowDecision(name);
    const holder = new pg.Client({ connectionString: tdb.url });
    await holder.connect();
    await holder.query("begin");
    await holder.query("insert into velocity_groups (group_hash, group_key, first_charged_at) values (decode($1, 'hex'), $2, now())", [groupHashHex(key), key]);
    const startedAt = performance.now();
    const release = sleep(RELEASE_AT_MS).then(() => holder.query("rollback"));
    const result = await withinDeadline(BUDGET_MS, startedAt, (deadline) =>
      withDecisionSession(tdb.handle.db, deadline, async (session) => {
        await session.read(readArgs(name, [key], [], row.decidedAt, true));
        await sleep(WRITE_AT_MS - (performance.now() - startedAt));
        await session.write(writeArgs({ decision: row, charges: [{ transferIndex: 0, key, amount: "1" }] }));
      }),
    );
    expect(result.done).toBe(false);
    await release;
    await holder.end();
    await untilNoDecisionWork(tdb.url);
    const rows = await tdb.handle.db.selectFrom("decisions").select("id").where("transaction_name", "=", name).execute();
    const charges = await tdb.handle.db.selectFrom("velocity_charges").select("decision_id").where("transaction_name", "=", name).execute();
    expect(rows).toEqual([]);
    expect(charges).toEqual([]);
  });

  it("the check passes within the budget and fails past it with the statement-timeout code", async () => {
    const client = new pg.Client({ connectionString: tdb.url });
    await client.connect();
    try {
      expect(await checkAfterBudget((text) => client.query(text))).toMatchObject({ code: "57014" });
    } finally {
      await client.end();
    }
  });
});

describe("the write's COMMIT on the embedded PGlite", () => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await openDatabase({ dataDir: ":memory:" });
    await migrateToLatest(handle.db);
  });
  afterAll(async () => {
    await handle?.close();
  });

  it("the check passes within the budget and fails past it with the statement-timeout code", async () => {
    // One connection: consecutive statements share its session, as on the pg client above.
    expect(await checkAfterBudget((text) => sql.raw(text).execute(handle.db))).toMatchObject({ code: "57014" });
  });
});

/** Waits until no backend is running the decision's statements (the late write has finished). */
async function untilNoDecisionWork(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await vi.waitFor(
      async () => {
        const { rows } = await client.query<{ n: string }>(
          "select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and state <> 'idle' and query like '%countersign_decision_%'",
        );
        expect(rows[0]!.n, "sessions still running the late write").toBe("0");
      },
      { timeout: 30_000, interval: 50 },
    );
  } finally {
    await client.end();
  }
}
