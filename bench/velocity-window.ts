/**
 * Does reading a window cost the same for a hot wallet as for a quiet one?
 *
 * Seeds a quiet group (1,000 charges) and a hot group (1,000,000 charges) spread over the last
 * 24 h — in bulk, with generate_series, and the buckets built by the same SQL function and widths
 * the ledger uses — then times readWindowTotals for a 24 h window on each, interleaved so that
 * both see the same machine noise. Goal: hot median / quiet median ≤ 1.5.
 *
 *   npx tsx bench/velocity-window.ts            embedded PGlite in a temporary directory
 *   DATABASE_URL=postgres://... npx tsx ...     a scratch database created (and dropped) on that server
 *
 * The database handed to benchVelocityWindow must not be inside a transaction (it runs VACUUM).
 */
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import Big from "big.js";
import { sql, type Kysely } from "kysely";
import pg from "pg";
import { openDatabase, type DatabaseHandle } from "../src/database.js";
import { migrateToLatest } from "../src/db/migrate.js";
import type { Database } from "../src/database.js";
import { groupHashHex } from "../src/velocity/group-hash.js";
import { readWindowTotals, windowTotalId } from "../src/velocity/ledger.js";
import { BUCKET_WIDTHS } from "../src/velocity/window-plan.js";

export interface VelocityBenchOptions {
  quietCharges?: number;
  hotCharges?: number;
  /** Timed reads per group after warm-up (fewer if the time budget runs out). */
  iterations?: number;
  warmup?: number;
  /** Bound on the timed phase, milliseconds. */
  timeBudgetMs?: number;
  now?: Date;
  log?: (line: string) => void;
}

export interface ReadFigures {
  charges: number;
  iterations: number;
  medianMs: number;
  p99Ms: number;
}

export interface VelocityBenchFigures {
  seedMs: number;
  quiet: ReadFigures;
  hot: ReadFigures;
  /** hot median / quiet median. */
  medianRatio: number;
  p99Ratio: number;
}

const DAY_SECONDS = 86_400;

export async function benchVelocityWindow(db: Kysely<Database>, options: VelocityBenchOptions = {}): Promise<VelocityBenchFigures> {
  const o = {
    quietCharges: 1_000,
    hotCharges: 1_000_000,
    iterations: 2_000,
    warmup: 200,
    timeBudgetMs: 60_000,
    now: new Date(),
    log: (line: string) => console.log(line),
    ...options,
  };
  const run = randomBytes(4).toString("hex");
  const quietKey = JSON.stringify([["bench", `quiet-${run}`]]);
  const hotKey = JSON.stringify([["bench", `hot-${run}`]]);

  const seedStart = performance.now();
  // One connection with no statement timeout: a million-row insert outlasts the service's 10 s.
  await db.connection().execute(async (conn) => {
    await sql`set statement_timeout = 0`.execute(conn);
    const decisionId = await insertBenchDecision(conn, o.now);
    await seedGroup(conn, { key: quietKey, charges: o.quietCharges, decisionId, now: o.now });
    o.log(`seeded ${o.quietCharges} charges for the quiet group`);
    await seedGroup(conn, { key: hotKey, charges: o.hotCharges, decisionId, now: o.now });
    o.log(`seeded ${o.hotCharges} charges for the hot group`);
    // As autovacuum would have by then: statistics, and a visibility map for index-only reads.
    for (const table of ["velocity_charges", "velocity_buckets", "velocity_groups"]) {
      await sql`vacuum analyze ${sql.table(table)}`.execute(conn);
    }
    await sql`reset statement_timeout`.execute(conn);
  });
  const seedMs = performance.now() - seedStart;
  o.log(`seeding took ${(seedMs / 1000).toFixed(1)} s`);

  for (const key of [quietKey, hotKey]) await checkAgainstFullScan(db, key, o.now);
  o.log("window totals checked against a full scan of the charges: equal");

  const { quiet, hot } = await timeReads(db, { quietKey, hotKey, ...o });
  const figures: VelocityBenchFigures = {
    seedMs,
    quiet: { charges: o.quietCharges, ...quiet },
    hot: { charges: o.hotCharges, ...hot },
    medianRatio: hot.medianMs / quiet.medianMs,
    p99Ratio: hot.p99Ms / quiet.p99Ms,
  };
  report(figures, o.log);
  return figures;
}

export async function insertBenchDecision(db: Kysely<Database>, now: Date): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto("decisions")
    .values({
      id,
      decided_at: now,
      transaction_name: `vaults/bench/transactions/seed-${id}`,
      vault: "vaults/bench",
      decision: "allow",
      sign_transaction: true,
      http_status: 200,
      replayed: false,
      replay_of: null,
      policy_version: "bench",
      policy_digest: "0".repeat(64),
      matched_rules: "[]",
      reasons: "[]",
      facts: "[]",
      transaction: "{}",
      content_digest: "bench",
      request_id: "bench",
      duration_ms: 0,
    })
    .execute();
  return id;
}

const SEED_CHUNK = 50_000;

/**
 * n charges evenly spread over (now − 24 h, now], with 18-decimal amounts, and their buckets
 * raised in the same statement exactly as recordCharges does it. In chunks, so that no statement
 * outlasts the pool's query timeout.
 */
export async function seedGroup(db: Kysely<Database>, g: { key: string; charges: number; decisionId: string; now: Date; widths?: readonly number[] }): Promise<void> {
  const hash = groupHashHex(g.key);
  const now = g.now.toISOString();
  await sql`insert into velocity_groups (group_hash, group_key, first_charged_at)
    values (decode(${hash}, 'hex'), ${g.key}, ${now}::timestamptz - interval '1 day')`.execute(db);
  for (let first = 1; first <= g.charges; first += SEED_CHUNK) {
    const last = Math.min(g.charges, first + SEED_CHUNK - 1);
    await sql`
      with charged as (
        insert into velocity_charges (decision_id, transaction_name, vault, transfer_index, group_hash, amount, charged_at)
        select ${g.decisionId}::uuid, 'vaults/bench/transactions/' || ${hash} || '-' || i, 'vaults/bench', 0, decode(${hash}, 'hex'),
               (i % 997)::numeric + 0.123456789012345678,
               ${now}::timestamptz - make_interval(secs => (i - 0.5) * ${DAY_SECONDS}::float8 / ${g.charges}::int)
        from generate_series(${first}::int, ${last}::int) as i
        returning group_hash, amount, charged_at
      )
      insert into velocity_buckets as b (group_hash, width_seconds, bucket_start, amount, count)
      select c.group_hash, w.width, velocity_bucket_start(w.width, c.charged_at), sum(coalesce(c.amount, 0)), count(*)
      from charged c cross join unnest(${[...(g.widths ?? BUCKET_WIDTHS)]}::int4[]) as w(width)
      group by 1, 2, 3
      on conflict (group_hash, width_seconds, bucket_start)
        do update set amount = b.amount + excluded.amount, count = b.count + excluded.count`.execute(db);
  }
}

/** The bench is also a correctness check: the bucketed read equals the sum over every charge. */
async function checkAgainstFullScan(db: Kysely<Database>, key: string, now: Date): Promise<void> {
  const at = new Date(now.getTime() - 12_345);
  const read = (await readWindowTotals(db, [{ window: "daily", key, durationSeconds: DAY_SECONDS }], at)).get(windowTotalId("daily", key));
  const { rows } = await sql<{ amount: string; count: string }>`
    select coalesce(sum(amount), 0)::text as amount, count(*)::text as count from velocity_charges
    where group_hash = decode(${groupHashHex(key)}, 'hex') and voided_at is null
      and charged_at > ${at.toISOString()}::timestamptz - interval '1 day'`.execute(db);
  const full = rows[0];
  if (!read || !full || read.amount !== new Big(full.amount).toFixed() || read.count !== Number(full.count)) {
    throw new Error(`window total ${JSON.stringify(read)} differs from a full scan ${JSON.stringify(full)}`);
  }
}

interface TimingInput {
  quietKey: string;
  hotKey: string;
  iterations: number;
  warmup: number;
  timeBudgetMs: number;
  now: Date;
}

async function timeReads(db: Kysely<Database>, t: TimingInput): Promise<{ quiet: Omit<ReadFigures, "charges">; hot: Omit<ReadFigures, "charges"> }> {
  const samples = { quiet: [] as number[], hot: [] as number[] };
  const deadline = performance.now() + t.timeBudgetMs;
  for (let i = 0; i < t.warmup + t.iterations && performance.now() < deadline; i++) {
    // The read time moves a little each round so the old edge cuts a different second.
    const now = new Date(t.now.getTime() - (i % 5_000) * 7);
    for (const [which, key] of [
      ["quiet", t.quietKey],
      ["hot", t.hotKey],
    ] as const) {
      const started = performance.now();
      await readWindowTotals(db, [{ window: "daily", key, durationSeconds: DAY_SECONDS }], now);
      if (i >= t.warmup) samples[which].push(performance.now() - started);
    }
  }
  return { quiet: summarise(samples.quiet), hot: summarise(samples.hot) };
}

function summarise(samples: number[]): Omit<ReadFigures, "charges"> {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  return { iterations: sorted.length, medianMs: at(0.5), p99Ms: at(0.99) };
}

function report(f: VelocityBenchFigures, log: (line: string) => void): void {
  for (const [name, r] of [
    ["quiet", f.quiet],
    ["hot", f.hot],
  ] as const) {
    log(`${name.padEnd(5)} ${String(r.charges).padStart(9)} charges: median ${r.medianMs.toFixed(3)} ms, p99 ${r.p99Ms.toFixed(3)} ms (${r.iterations} reads)`);
  }
  log(`hot/quiet: median ×${f.medianRatio.toFixed(2)}, p99 ×${f.p99Ratio.toFixed(2)} (goal: median ≤ 1.5)`);
}

/** Standalone: a scratch database on DATABASE_URL's server, or PGlite in a temporary directory. */
async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  const scratch = url ? await scratchPostgres(url) : scratchPGlite();
  const handle: DatabaseHandle = await openDatabase(scratch.options);
  try {
    await migrateToLatest(handle.db);
    console.log(`velocity window bench on ${handle.kind}`);
    await benchVelocityWindow(handle.db);
  } finally {
    await handle.close();
    await scratch.drop();
  }
}

export interface Scratch {
  options: { url?: string; dataDir?: string };
  drop(): Promise<void>;
}

export async function scratchPostgres(url: string): Promise<Scratch> {
  const name = `countersign_bench_${randomBytes(4).toString("hex")}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const scratchUrl = new URL(url);
  scratchUrl.pathname = `/${name}`;
  return { options: { url: scratchUrl.toString() }, drop: () => admin(`drop database if exists ${name} with (force)`) };
}

export function scratchPGlite(): Scratch {
  const dir = mkdtempSync(path.join(tmpdir(), "countersign-bench-"));
  return { options: { dataDir: dir }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
