/**
 * migrations/20261122T1310_ledger.ts on a database that already holds a ledger in the old layout
 * (buckets of 1 s, 1 min, 1 h and 1 day): every window reads the same totals after it as before,
 * and those equal the charges summed one by one.
 */
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import type { Db } from "../../src/db/connect.js";
import { migrateToLatest } from "../../src/db/migrate.js";
import { groupHashHex } from "../../src/velocity/group-hash.js";
import { readWindowTotals, windowTotalId } from "../../src/velocity/ledger.js";
import { migrateToJustBefore, unmigratedBackends } from "../support/backends.js";
import { insertAllowDecision } from "./support.js";

const LEDGER_MIGRATION = "20261122T1310_ledger";
const OLD_WIDTHS = [1, 60, 3600, 86400];
const WINDOWS = [1, 59, 60, 61, 3600, 86_400, 7 * 86_400];



/** Charges with their buckets at the old widths, as the ledger wrote them before the migration. */
async function seedOldLayout(db: Db, key: string, now: Date): Promise<void> {
  const decisionId = await insertAllowDecision(db, `vaults/v1/transactions/seed-${randomUUID()}`, now);
  const hash = groupHashHex(key);
  await sql`insert into velocity_groups (group_hash, group_key, first_charged_at) values (decode(${hash}, 'hex'), ${key}, ${now}::timestamptz - interval '9 days')`.execute(db);
  await sql`
    with charged as (
      insert into velocity_charges (decision_id, transaction_name, vault, transfer_index, group_hash, amount, charged_at)
      select ${decisionId}::uuid, 'vaults/v1/transactions/m-' || i, 'vaults/v1', 0, decode(${hash}, 'hex'),
             case when i % 11 = 0 then null else (i % 97)::numeric + 0.000000000000000001 end,
             ${now.toISOString()}::timestamptz - make_interval(secs => i * 997.123457)
      from generate_series(0, 800) as i
      returning group_hash, amount, charged_at
    )
    insert into velocity_buckets (group_hash, width_seconds, bucket_start, amount, count)
    select c.group_hash, w.width, velocity_bucket_start(w.width, c.charged_at), sum(coalesce(c.amount, 0)), count(*)
    from charged c cross join unnest(${OLD_WIDTHS}::int4[]) as w(width)
    group by 1, 2, 3`.execute(db);
}

async function read(db: Db, key: string, now: Date, widths?: number[]): Promise<string[]> {
  const queries = WINDOWS.map((d) => ({ window: `w${d}`, key, durationSeconds: d }));
  const totals = await readWindowTotals(db, queries, now, widths);
  return queries.map((q) => JSON.stringify(totals.get(windowTotalId(q.window, key))));
}

async function summed(db: Db, key: string, now: Date): Promise<string[]> {
  const out: string[] = [];
  for (const d of WINDOWS) {
    const { rows } = await sql<{ amount: string; count: string }>`
      select coalesce(sum(amount), 0) as amount, count(*)::text as count from velocity_charges
      where group_hash = decode(${groupHashHex(key)}, 'hex') and voided_at is null and charged_at > ${now.toISOString()}::timestamptz - make_interval(secs => ${d})`.execute(db);
    const { default: Big } = await import("big.js");
    out.push(JSON.stringify({ amount: new Big(rows[0]!.amount).toFixed(), count: Number(rows[0]!.count) }));
  }
  return out;
}

describe.each(unmigratedBackends)("the ledger migration on $name with an existing ledger", (backend) => {
  it("keeps every window total identical and drops the 1-second buckets", async () => {
    const { db, close } = await backend.open();
    try {
      await migrateToJustBefore(db, LEDGER_MIGRATION);
      const key = JSON.stringify([["sourceWallet", "w-migrated"]]);
      const now = new Date("2026-11-22T12:34:56.789Z");
      await seedOldLayout(db, key, now);
      const reads = [now, new Date(now.getTime() - 3_600_123), new Date(now.getTime() + 61_001)];
      const before = await Promise.all(reads.map((at) => read(db, key, at, OLD_WIDTHS)));

      await migrateToLatest(db);
      const after = await Promise.all(reads.map((at) => read(db, key, at)));
      expect(after).toEqual(before);
      expect(after).toEqual(await Promise.all(reads.map((at) => summed(db, key, at))));
      const { rows } = await sql<{ n: string }>`select count(*)::text as n from velocity_buckets where width_seconds = 1`.execute(db);
      expect(rows[0]?.n).toBe("0");
      await expect(sql`insert into velocity_buckets (group_hash, width_seconds, bucket_start, amount, count)
        values (decode(${groupHashHex(key)}, 'hex'), 1, '2026-11-22T12:00:00Z', 0, 0)`.execute(db)).rejects.toThrow(/width_seconds_check/);
    } finally {
      await close();
    }
  });
});
