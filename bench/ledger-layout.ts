/**
 * What each bucket-width layout of the velocity ledger costs (issue 13, "a lighter ledger").
 *
 * Read: one quiet group (1,000 charges) and one hot group (1,000,000 by default) over the last
 * 24 h, bucketed at every candidate width; for each candidate layout, the 24 h and the 1 h window
 * read as readWindowTotals issues it: buffers touched (EXPLAIN ANALYZE, machine-independent) and
 * the median time of interleaved reads. Every layout's totals are checked equal.
 * Write: per allowed transfer, the charge row and its buckets (one statement, as recordCharges),
 * with and without the velocity_groups statement before it: WAL bytes and buffers per charge
 * (EXPLAIN ANALYZE WAL), the median transaction time, and the share of bucket updates that were
 * HOT (pg_stat_user_tables) for several fillfactors of velocity_buckets.
 *
 *   DATABASE_URL=postgres://... npx tsx bench/ledger-layout.ts     a scratch database on that server
 *   npx tsx bench/ledger-layout.ts                                 embedded PGlite (slow to seed)
 *   LEDGER_BENCH_HOT=100000 LEDGER_BENCH_WRITES=500 ...            smaller runs
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { pathToFileURL } from "node:url";
import Big from "big.js";
import { sql, type Kysely } from "kysely";
import { openDatabase } from "../src/database.js";
import { migrateToLatest } from "../src/db/migrate.js";
import type { Database } from "../src/database.js";
import { groupHashHex } from "../src/velocity/group-hash.js";
import { windowTotalsQuery } from "../src/velocity/read.js";
import { insertBenchDecision, scratchPGlite, scratchPostgres, seedGroup } from "./velocity-window.js";

export const CANDIDATE_LAYOUTS: readonly (readonly number[])[] = [
  [1, 60, 3600, 86400],
  [60, 3600, 86400],
  [1, 3600, 86400],
  [60, 86400],
  [1, 60, 86400],
];
const ALL_WIDTHS = [1, 60, 3600, 86400];
const WINDOWS = [
  { name: "24h", seconds: 86_400 },
  { name: "1h", seconds: 3_600 },
];

interface Options {
  quietCharges: number;
  hotCharges: number;
  reads: number;
  writes: number;
  groups: number;
  fillfactors: number[];
  log: (line: string) => void;
}

export async function benchLedgerLayout(db: Kysely<Database>, partial: Partial<Options> = {}): Promise<void> {
  const o: Options = { quietCharges: 1_000, hotCharges: 1_000_000, reads: 200, writes: 1_000, groups: 20, fillfactors: [100, 90, 70], log: console.log, ...partial };
  const now = new Date();
  const decisionId = await insertBenchDecision(db, now);
  await benchReads(db, o, decisionId, now);
  await benchWrites(db, o, decisionId, now);
}

async function benchReads(db: Kysely<Database>, o: Options, decisionId: string, now: Date): Promise<void> {
  const run = randomBytes(4).toString("hex");
  const groups = { quiet: JSON.stringify([["layout", `quiet-${run}`]]), hot: JSON.stringify([["layout", `hot-${run}`]]) };
  await db.connection().execute(async (conn) => {
    await sql`set statement_timeout = 0`.execute(conn);
    await seedGroup(conn, { key: groups.quiet, charges: o.quietCharges, decisionId, now, widths: ALL_WIDTHS });
    await seedGroup(conn, { key: groups.hot, charges: o.hotCharges, decisionId, now, widths: ALL_WIDTHS });
    for (const table of ["velocity_charges", "velocity_buckets", "velocity_groups"]) await sql`vacuum analyze ${sql.table(table)}`.execute(conn);
    await sql`reset statement_timeout`.execute(conn);
  });
  o.log(`read: ${o.quietCharges} and ${o.hotCharges} charges over 24 h, ${o.reads} timed reads per cell (median), buffers from EXPLAIN ANALYZE`);
  o.log(`layout               window  quiet buf  hot buf   quiet ms  hot ms   hot/quiet`);
  const at = new Date(now.getTime() - 12_345);
  for (const widths of CANDIDATE_LAYOUTS) {
    for (const w of WINDOWS) {
      const q = (key: string, i: number) => windowTotalsQuery([{ window: w.name, key, durationSeconds: w.seconds }], new Date(at.getTime() - (i % 997) * 7), widths);
      const totals = { quiet: await total(db, q(groups.quiet, 0)), hot: await total(db, q(groups.hot, 0)) };
      for (const which of ["quiet", "hot"] as const) {
        const full = await fullScan(db, groups[which], at, w.seconds);
        if (full !== totals[which]) throw new Error(`layout ${widths.join(",")} ${w.name} ${which}: ${totals[which]} differs from the charges' ${full}`);
      }
      const buffers = { quiet: await readBuffers(db, q(groups.quiet, 0)), hot: await readBuffers(db, q(groups.hot, 0)) };
      const times = { quiet: [] as number[], hot: [] as number[] };
      for (let i = 0; i < o.reads + 20; i++) {
        for (const which of ["quiet", "hot"] as const) {
          const started = performance.now();
          await q(groups[which], i).execute(db);
          if (i >= 20) times[which].push(performance.now() - started);
        }
      }
      const m = { quiet: median(times.quiet), hot: median(times.hot) };
      o.log(
        `${JSON.stringify(widths).padEnd(20)} ${w.name.padEnd(6)}  ${String(buffers.quiet).padStart(9)}  ${String(buffers.hot).padStart(7)}   ${m.quiet.toFixed(3).padStart(7)}  ${m.hot.toFixed(3).padStart(7)}  ×${(m.hot / m.quiet).toFixed(2)}`,
      );
    }
  }
}

type Query = ReturnType<typeof windowTotalsQuery>;

async function total(db: Kysely<Database>, q: Query): Promise<string> {
  const { rows } = await q.execute(db);
  const r = rows[0];
  return r ? `${new Big(r.amount).toFixed()}/${r.count}` : "0/0";
}

async function fullScan(db: Kysely<Database>, key: string, at: Date, seconds: number): Promise<string> {
  const { rows } = await sql<{ amount: string; count: string }>`
    select coalesce(sum(amount), 0)::text as amount, count(*)::text as count from velocity_charges
    where group_hash = decode(${groupHashHex(key)}, 'hex') and voided_at is null
      and charged_at > ${at.toISOString()}::timestamptz - make_interval(secs => ${seconds}::int)`.execute(db);
  return `${new Big(rows[0]!.amount).toFixed()}/${rows[0]!.count}`;
}

/** Shared buffers hit or read by one execution (planning excluded). */
async function readBuffers(db: Kysely<Database>, q: Query): Promise<number> {
  const { rows } = await sql<{ "QUERY PLAN": unknown }>`explain (analyze, buffers, timing off, format json) ${q}`.execute(db);
  const plan = planOf(rows[0]?.["QUERY PLAN"]);
  return Number(plan["Shared Hit Blocks"] ?? 0) + Number(plan["Shared Read Blocks"] ?? 0);
}

function planOf(raw: unknown): Record<string, unknown> {
  const doc = (typeof raw === "string" ? JSON.parse(raw) : raw) as { Plan: Record<string, unknown> }[];
  return doc[0]!.Plan;
}

interface WriteCell {
  widths: readonly number[];
  fillfactor: number;
  groupsStatement: boolean;
}

/**
 * `groups` groups in turn, a charge every 50 ms (each group charged every groups × 50 ms), one
 * transaction per charge as the webhook does; velocity_buckets emptied between cells.
 */
async function benchWrites(db: Kysely<Database>, o: Options, decisionId: string, now: Date): Promise<void> {
  const cells: WriteCell[] = [];
  for (const widths of CANDIDATE_LAYOUTS) cells.push({ widths, fillfactor: 100, groupsStatement: true });
  for (const fillfactor of o.fillfactors.filter((f) => f !== 100)) {
    for (const widths of CANDIDATE_LAYOUTS.slice(0, 2)) cells.push({ widths, fillfactor, groupsStatement: true });
  }
  cells.push({ widths: CANDIDATE_LAYOUTS[0]!, fillfactor: 100, groupsStatement: false });
  o.log(`write: ${o.writes} charges, one transaction each, ${o.groups} groups in turn, a charge every 50 ms`);
  o.log(`layout               ff   groups-stmt  WAL B/charge  buf/charge  ms/tx (median)  bucket upd  HOT%`);
  let cellNo = 0;
  for (const cell of cells) {
    cellNo += 1;
    const run = `${randomBytes(3).toString("hex")}-${cellNo}`;
    const keys = Array.from({ length: o.groups }, (_, g) => JSON.stringify([["layout-write", `${run}-${g}`]]));
    await sql`delete from velocity_buckets`.execute(db);
    await sql`vacuum velocity_buckets`.execute(db);
    await sql`alter table velocity_buckets set (fillfactor = ${sql.lit(cell.fillfactor)})`.execute(db);
    await sql`vacuum full velocity_buckets`.execute(db);
    // Groups exist already when the statement is left out (it would insert nothing after the first charge).
    if (!cell.groupsStatement) for (const key of keys) await insertGroup(db, key, now);
    const before = await bucketStats(db);
    let wal = 0;
    let buffers = 0;
    const times: number[] = [];
    for (let i = 0; i < o.writes; i++) {
      const key = keys[i % keys.length]!;
      const chargedAt = new Date(now.getTime() + i * 50);
      const started = performance.now();
      await db.transaction().execute(async (trx) => {
        if (cell.groupsStatement) {
          const g = await explainWrite(trx, insertGroupQuery(key, chargedAt));
          wal += g.wal;
          buffers += g.buffers;
        }
        const c = await explainWrite(trx, chargeQuery({ decisionId, name: `vaults/layout/transactions/${run}-${i}`, key, chargedAt, widths: cell.widths }));
        wal += c.wal;
        buffers += c.buffers;
      });
      times.push(performance.now() - started);
    }
    const after = await bucketStats(db);
    const upd = after.upd - before.upd;
    const hot = after.hot - before.hot;
    o.log(
      `${JSON.stringify(cell.widths).padEnd(20)} ${String(cell.fillfactor).padStart(3)}  ${(cell.groupsStatement ? "every" : "none").padEnd(11)}  ${(wal / o.writes).toFixed(0).padStart(12)}  ${(buffers / o.writes).toFixed(1).padStart(10)}  ${median(times).toFixed(3).padStart(14)}  ${String(upd).padStart(10)}  ${upd > 0 ? ((100 * hot) / upd).toFixed(0) : "-"}`,
    );
  }
  await sql`alter table velocity_buckets reset (fillfactor)`.execute(db);
}

function insertGroupQuery(key: string, at: Date) {
  return sql`insert into velocity_groups (group_hash, group_key, first_charged_at)
    values (decode(${groupHashHex(key)}, 'hex'), ${key}, ${at.toISOString()}::timestamptz) on conflict (group_hash) do nothing`;
}

async function insertGroup(db: Kysely<Database>, key: string, at: Date): Promise<void> {
  await insertGroupQuery(key, at).execute(db);
}

/** The charge row and its buckets, as src/velocity/charge.ts writes them, for one charge. */
function chargeQuery(c: { decisionId: string; name: string; key: string; chargedAt: Date; widths: readonly number[] }) {
  return sql`
    with charged as (
      insert into velocity_charges (decision_id, transaction_name, vault, transfer_index, group_hash, amount, charged_at)
      values (${c.decisionId}::uuid, ${c.name}, 'vaults/layout', 0, decode(${groupHashHex(c.key)}, 'hex'), 12.5, ${c.chargedAt.toISOString()}::timestamptz)
      returning group_hash, amount, charged_at
    )
    insert into velocity_buckets as b (group_hash, width_seconds, bucket_start, amount, count)
    select i.group_hash, w.width, velocity_bucket_start(w.width, i.charged_at), sum(coalesce(i.amount, 0)), count(*)
    from charged i cross join unnest(${[...c.widths]}::int4[]) as w(width)
    group by 1, 2, 3
    on conflict (group_hash, width_seconds, bucket_start)
      do update set amount = b.amount + excluded.amount, count = b.count + excluded.count`;
}

async function explainWrite(trx: Kysely<Database>, q: ReturnType<typeof sql>): Promise<{ wal: number; buffers: number }> {
  const { rows } = await sql<{ "QUERY PLAN": unknown }>`explain (analyze, buffers, wal, timing off, format json) ${q}`.execute(trx);
  const plan = planOf(rows[0]?.["QUERY PLAN"]);
  return {
    wal: Number(plan["WAL Bytes"] ?? 0),
    buffers: Number(plan["Shared Hit Blocks"] ?? 0) + Number(plan["Shared Read Blocks"] ?? 0),
  };
}

async function bucketStats(db: Kysely<Database>): Promise<{ upd: number; hot: number }> {
  await sql`select pg_stat_force_next_flush()`.execute(db).catch(() => undefined);
  await sql`select pg_stat_clear_snapshot()`.execute(db);
  const { rows } = await sql<{ upd: string; hot: string }>`
    select n_tup_upd::text as upd, n_tup_hot_upd::text as hot from pg_stat_user_tables where relname = 'velocity_buckets'`.execute(db);
  return { upd: Number(rows[0]?.upd ?? 0), hot: Number(rows[0]?.hot ?? 0) };
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  const scratch = url ? await scratchPostgres(url) : scratchPGlite();
  const handle = await openDatabase(scratch.options);
  try {
    await migrateToLatest(handle.db);
    console.log(`ledger layout bench on ${handle.kind}`);
    const n = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
    await benchLedgerLayout(handle.db, {
      hotCharges: n("LEDGER_BENCH_HOT", 1_000_000),
      writes: n("LEDGER_BENCH_WRITES", 1_000),
      reads: n("LEDGER_BENCH_READS", 200),
      groups: n("LEDGER_BENCH_GROUPS", 20),
    });
  } finally {
    await handle.close();
    await scratch.drop();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
