/**
 * Must-show 2: the writer role is refused UPDATE, DELETE and TRUNCATE by the database's privileges
 * (not only by the triggers); the auditor role is refused INSERT and sees only the audit tables and
 * views; the service serves decisions connected as the writer role, with migrations run as the owner.
 */
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyChain } from "../../../src/audit/verify.js";
import { openDatabase, type DatabaseHandle } from "../../../src/database.js";
import { assetTransfer } from "../../support/bodies.js";
import { CosignerSimulator } from "../../support/cosigner.js";
import { decisionRow } from "../../support/decision-rows.js";
import { createTestDatabase, serverUrl, type TestDatabase } from "../../support/postgres.js";
import { startTestService } from "../../support/service.js";

const suffix = randomBytes(4).toString("hex");
const WRITER_LOGIN = `cs_writer_login_${suffix}`;
const AUDITOR_LOGIN = `cs_auditor_login_${suffix}`;

function urlAs(url: string, user: string): string {
  const u = new URL(url);
  u.username = user;
  u.password = "";
  return u.toString();
}

async function asSuperuser(run: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    await run(client);
  } finally {
    await client.end();
  }
}

describe("database roles on a Postgres server", () => {
  let tdb: TestDatabase;
  let writer: DatabaseHandle;
  let auditor: DatabaseHandle;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    await asSuperuser(async (c) => {
      await c.query(`create role ${WRITER_LOGIN} login in role countersign_writer`);
      await c.query(`create role ${AUDITOR_LOGIN} login in role countersign_auditor`);
    });
    await tdb.handle.db.insertInto("decisions").values(decisionRow()).execute();
    writer = await openDatabase({ url: urlAs(tdb.url, WRITER_LOGIN), maxConnections: 2 });
    auditor = await openDatabase({ url: urlAs(tdb.url, AUDITOR_LOGIN), maxConnections: 2 });
  });
  afterAll(async () => {
    await tdb?.drop();
    await asSuperuser(async (c) => {
      await c.query(`drop role if exists ${WRITER_LOGIN}`);
      await c.query(`drop role if exists ${AUDITOR_LOGIN}`);
    });
  });

  it("refuses the writer UPDATE, DELETE and TRUNCATE of audit rows by privilege", async () => {
    const db = writer.db;
    const columns: Record<string, string> = { decisions: "decision", events: "type", audit_chain: "sealed_at", audit_seals: "sealed_at" };
    for (const [table, column] of Object.entries(columns)) {
      await expect(sql`update ${sql.table(table)} set ${sql.ref(column)} = ${sql.ref(column)}`.execute(db)).rejects.toThrow(new RegExp(`permission denied for table ${table}`));
      await expect(sql`delete from ${sql.table(table)}`.execute(db)).rejects.toThrow(new RegExp(`permission denied for table ${table}`));
      await expect(sql`truncate ${sql.table(table)}`.execute(db)).rejects.toThrow(new RegExp(`permission denied for table ${table}`));
    }
    // A partition is not a way around it.
    await expect(sql`truncate decisions_default`.execute(db)).rejects.toThrow(/permission denied/);
    await expect(sql`create table decisions_2099_01 partition of decisions for values from ('2099-01-01') to ('2099-02-01')`.execute(db)).rejects.toThrow(
      /permission denied|must be owner/,
    );
  });

  it("lets the writer prune the velocity ledger only through velocity_prune_batch, never delete charges itself", async () => {
    await expect(sql`delete from velocity_charges`.execute(writer.db)).rejects.toThrow(/permission denied for table velocity_charges/);
    await expect(sql`truncate velocity_charges`.execute(writer.db)).rejects.toThrow(/permission denied for table velocity_charges/);
    const { rows } = await sql<{ n: number }>`select deleted as n from velocity_prune_batch(now() - interval '40 days', now() - interval '400 days', 10)`.execute(writer.db);
    expect(rows[0]?.n).toBe(0);
    await expect(sql`select velocity_prune_batch(now(), now(), 10)`.execute(writer.db)).rejects.toThrow(/keeps at least the last day/);
    await expect(sql`select velocity_prune_batch(now() - interval '40 days', now() - interval '400 days', 10)`.execute(auditor.db)).rejects.toThrow(
      /permission denied for function velocity_prune_batch/,
    );
  });

  it("lets the writer claim velocity windows only through velocity_window_claim, never shorten or erase a claim", async () => {
    const holder = `replica-${suffix}`;
    await sql`select velocity_window_claim(${holder}, ${900 * 86_400}, 3600)`.execute(writer.db);
    for (const change of [
      sql`delete from velocity_window_claims`,
      sql`truncate velocity_window_claims`,
      sql`update velocity_window_claims set lapses_at = now()`,
      sql`insert into velocity_window_claims (holder, window_seconds, lapses_at) values ('x', 60, now())`,
    ]) {
      await expect(change.execute(writer.db)).rejects.toThrow(/permission denied for table velocity_window_claims/);
    }
    // Claiming again, with a shorter window or the shortest lapse, leaves the 900 d claim's lapse where it was.
    const before = await sql<{ lapses_at: Date }>`select lapses_at from velocity_window_claims where holder = ${holder} and window_seconds = ${900 * 86_400}`.execute(writer.db);
    await sql`select velocity_window_claim(${holder}, 60, 600)`.execute(writer.db);
    await sql`select velocity_window_claim(${holder}, ${900 * 86_400}, 600)`.execute(writer.db);
    const after = await sql<{ lapses_at: Date }>`select lapses_at from velocity_window_claims where holder = ${holder} and window_seconds = ${900 * 86_400}`.execute(writer.db);
    expect(after.rows[0]!.lapses_at.getTime()).toBeGreaterThanOrEqual(before.rows[0]!.lapses_at.getTime());
    await expect(sql`select velocity_window_claim(${holder}, 60, 1)`.execute(writer.db)).rejects.toThrow(/lapse must be 10 min to 90 d/);
    // So a prune asked for 400 days keeps 901.
    const { rows } = await sql<{ claimed: number; clamped: boolean }>`select claimed_window_seconds as claimed, clamped
      from velocity_prune_batch(now() - interval '40 days', now() - interval '400 days', 10)`.execute(writer.db);
    expect(rows[0]).toEqual({ claimed: 900 * 86_400, clamped: true });
    await expect(sql`select velocity_window_claim('a', 60, 3600)`.execute(auditor.db)).rejects.toThrow(/permission denied for function velocity_window_claim/);
  });

  it("lets the writer insert and read audit rows and create months ahead through the owner's function", async () => {
    const row = decisionRow();
    await writer.db.insertInto("decisions").values(row).execute();
    const back = await writer.db.selectFrom("decisions").select("id").where("id", "=", row.id).execute();
    expect(back).toEqual([{ id: row.id }]);
    const { rows } = await sql<{ created: number }>`select decisions_ensure_partitions(5) as created`.execute(writer.db);
    expect(rows[0]?.created).toBeGreaterThanOrEqual(1);
  });

  it("refuses the auditor INSERT, and shows it the audit tables and views but not the working tables", async () => {
    await expect(auditor.db.insertInto("decisions").values(decisionRow()).execute()).rejects.toThrow(/permission denied for table decisions/);
    await expect(
      sql`insert into audit_chain (position, source, row_key, row_time, row_digest, prev_hash, hash, sealed_at)
      values (999, 'decisions', 'x', now(), sha256(''), sha256(''), sha256(''), now())`.execute(auditor.db),
    ).rejects.toThrow(/permission denied/);
    await expect(sql`select audit_seal(10)`.execute(auditor.db)).rejects.toThrow(/permission denied/);
    for (const readable of ["decisions", "events", "audit_chain", "audit_seals", "velocity_charges", "decision_log", "transaction_timeline"]) {
      await sql`select * from ${sql.table(readable)} limit 1`.execute(auditor.db);
    }
    for (const hidden of ["address_book_entries", "velocity_buckets", "kysely_migration"]) {
      await expect(sql`select * from ${sql.table(hidden)} limit 1`.execute(auditor.db)).rejects.toThrow(/permission denied/);
    }
    // Verifying needs nothing more than reading.
    expect((await verifyChain(auditor.db)).breakCount).toBe(0);
  });

  it("serves decisions connected as the writer role, with migrations run by the owner", async () => {
    // Only the service's own connections may carry the writer login from here on.
    await writer.close();
    await auditor.close();
    const service = await startTestService({
      databaseUrl: urlAs(tdb.url, WRITER_LOGIN),
      env: { COUNTERSIGN_MIGRATE_DATABASE_URL: tdb.url },
    });
    try {
      const body = assetTransfer({ amount: "3" });
      const cosigner = new CosignerSimulator({ webhookUrl: `${service.url}/v1/cosigner/webhook` });
      expect((await cosigner.deliver(body)).verdict).toBe("signed");
      const { rows } = await sql<{ usename: string }>`
        select distinct usename from pg_stat_activity where datname = current_database() and application_name = 'countersign'
          and usename <> current_user`.execute(tdb.handle.db);
      expect(rows.map((r) => r.usename)).toEqual([WRITER_LOGIN]);
      const row = await tdb.handle.db.selectFrom("decisions").select("id").where("transaction_name", "=", body.name).executeTakeFirstOrThrow();
      // The service's own sealer, as the writer role, links the row.
      await expect.poll(async () => (await sql`select 1 from audit_chain where row_key = ${row.id}`.execute(tdb.handle.db)).rows.length, { timeout: 15_000 }).toBe(1);
    } finally {
      await service.stop();
    }
  });
});
