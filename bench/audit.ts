/**
 * Audit-trail figures for `npm run bench`:
 *
 * 1. Webhook decisions/s with the background sealer on versus off (goal: ratio >= 0.95), runs
 *    alternated off/on/off/on on the same database, the backlog of an "off" run sealed before the
 *    next run; and, for the rows decided during the "on" runs, seconds from commit (decided_at +
 *    duration_ms, the moment the row was written) to sealed (the sealing batch's time).
 * 2. The plan and time of the idempotency lookup by transaction name and of a one-day range query
 *    (replay) on a `decisions` table seeded with generate_series over twelve monthly partitions,
 *    at 1% of the rows and at all of them (BENCH_AUDIT_ROWS, default 1,000,000; 10,000,000 takes
 *    several minutes to seed here).
 */
import { sql } from "kysely";
import pg from "pg";
import type { DatabaseHandle, Db } from "../src/database.js";
import { sealPending } from "../src/audit/sealer.js";
import { fmt, summarize } from "./stats.js";
import { benchThroughput, type ThroughputResult } from "./webhook-throughput.js";

export interface SealingFigures {
  off: ThroughputResult[];
  on: ThroughputResult[];
  ratio: number;
  commitToSealed: { p50: number; p99: number; max: number; rows: number };
}

const mean = (runs: ThroughputResult[]) => runs.reduce((s, r) => s + r.perSecond, 0) / runs.length;

export async function benchSealing(database: DatabaseHandle, policies: string, seconds: number): Promise<SealingFigures> {
  const off: ThroughputResult[] = [];
  const on: ThroughputResult[] = [];
  const windows: { from: string; to: string }[] = [];
  for (const sealing of [false, true, false, true]) {
    await sealPending(database.db);
    const from = await dbNow(database.db);
    const r = await benchThroughput(database, policies, sealing ? "sealing on" : "sealing off", seconds, { COUNTERSIGN_AUDIT_SEAL: String(sealing) });
    (sealing ? on : off).push(r);
    if (sealing) windows.push({ from, to: await dbNow(database.db) });
  }
  await sealPending(database.db);
  const lags: number[] = [];
  for (const w of windows) {
    // Rows the service's own sealer linked while it ran (not those left for the catch-up between runs).
    const { rows } = await sql<{ lag: number }>`
      select extract(epoch from c.sealed_at - (d.decided_at + d.duration_ms * interval '1 millisecond'))::float8 as lag
      from decisions d join audit_chain c on c.source = 'decisions' and c.row_key = d.id::text
      where d.decided_at >= ${w.from}::timestamptz and d.decided_at < ${w.to}::timestamptz and c.sealed_at < ${w.to}::timestamptz`.execute(database.db);
    for (const r of rows) lags.push(Number(r.lag));
  }
  const s = summarize(lags); // in seconds here
  return { off, on, ratio: mean(on) / mean(off), commitToSealed: { p50: s.medianMs, p99: s.p99Ms, max: Math.max(...lags), rows: s.n } };
}

async function dbNow(db: Db): Promise<string> {
  const { rows } = await sql<{ now: string }>`select clock_timestamp()::text as now`.execute(db);
  return rows[0]!.now;
}

export interface QueryFigure {
  rows: number;
  lookupMedianMs: number;
  lookupPlan: string;
  rangeMedianMs: number;
  rangeRows: number;
  rangePlan: string;
}

const MONTHS = 12;
const SEED_CHUNK = 500_000;

/** Seeds `total` decisions over twelve months (measuring at 1% and at 100%) and times the two queries. */
export async function benchAuditQueries(db: Db, url: string, total: number, log: (line: string) => void): Promise<QueryFigure[]> {
  // Seeding statements outlast the service pool's statement timeout: they get a client of their own.
  const seeder = new pg.Client({ connectionString: url });
  await seeder.connect();
  try {
    return await seedAndTime(db, seeder, total, log);
  } finally {
    await seeder.end();
  }
}

async function seedAndTime(db: Db, seeder: pg.Client, total: number, log: (line: string) => void): Promise<QueryFigure[]> {
  const end = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
  const start = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() - MONTHS, 1));
  for (let m = 0; m <= MONTHS; m++) {
    const month = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + m, 1)).toISOString().slice(0, 10);
    await sql`select decisions_create_month(${month}::date)`.execute(db);
  }
  const spanSeconds = (end.getTime() - start.getTime()) / 1000;
  const figures: QueryFigure[] = [];
  let seeded = 0;
  for (const target of [Math.max(1, Math.floor(total / 100)), total]) {
    const t0 = performance.now();
    // A bulk load is faster with the secondary indexes built afterwards, as a restore would do.
    const indexes = target - seeded > 1_000_000 ? await dropSecondaryIndexes(seeder) : [];
    while (seeded < target) {
      const last = Math.min(target, seeded + SEED_CHUNK);
      await seed(seeder, seeded + 1, last, total, start, spanSeconds);
      seeded = last;
    }
    for (const definition of indexes) await seeder.query(definition);
    await seeder.query("analyze decisions");
    log(`  seeded ${seeded.toLocaleString("en")} decisions in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    figures.push(await timeQueries(db, seeded, start, spanSeconds));
  }
  return figures;
}

/** Drops the partitioned table's indexes other than its primary key; returns their definitions. */
async function dropSecondaryIndexes(seeder: pg.Client): Promise<string[]> {
  const { rows } = await seeder.query<{ name: string; definition: string }>(
    `select i.relname as name, pg_get_indexdef(i.oid) as definition
     from pg_index x join pg_class i on i.oid = x.indexrelid
     where x.indrelid = 'decisions'::regclass and not x.indisprimary`,
  );
  for (const r of rows) await seeder.query(`drop index ${r.name}`);
  // pg_get_indexdef names the parent ON ONLY (an index of the parent alone): build every partition's too.
  return rows.map((r) => r.definition.replace(" ON ONLY ", " ON "));
}

/**
 * Rows i in [first, last]: one delivery each of a distinct transaction, times spread evenly over
 * the span by i / total (so each step of the seeding fills the whole year more densely).
 */
async function seed(seeder: pg.Client, first: number, last: number, total: number, start: Date, spanSeconds: number): Promise<void> {
  await seeder.query(
    `
    insert into decisions (id, decided_at, transaction_name, vault, decision, sign_transaction, http_status, replayed,
      policy_version, policy_digest, matched_rules, reasons, facts, transaction, content_digest, request_id, duration_ms)
    select gen_random_uuid(),
      $1::timestamptz + make_interval(secs => ((i::bigint * 7919) % $2::bigint)::float8 * $3::float8 / $2::float8),
      'vaults/bench/transactions/t' || i, 'vaults/bench',
      case when i % 10 = 0 then 'deny' else 'allow' end, i % 10 <> 0, 200, false,
      'bench', repeat('0', 64), '[{"rule":"trusted-destination","decision":"allow","transfer":0}]', '["bench"]',
      '[{"transfer":{"index":0,"asset":"assets/native.ethereum-mainnet","amount":"1.5"}}]', '{"name":"bench"}',
      md5(i::text), 'bench', 1.5
    from generate_series($4::int, $5::int) as i`,
    [start.toISOString(), total, spanSeconds, first, last],
  );
}

/** The idempotency lookup decide() makes (src/audit/decision-rows.ts), and a day of decisions as replay reads it. */
async function timeQueries(db: Db, seeded: number, start: Date, spanSeconds: number): Promise<QueryFigure> {
  const lookup = (name: string) => sql`
    select id, decision, policy_version, policy_digest, matched_rules, reasons, content_digest from decisions
    where transaction_name = ${name} and decision in ('allow', 'deny') and replayed = false and replay_of is null
    order by seq limit 1`;
  const dayStart = new Date(start.getTime() + (spanSeconds / 2) * 1000);
  const dayEnd = new Date(dayStart.getTime() + 86_400_000);
  const range = sql`select id, decided_at, decision, facts from decisions
    where decided_at >= ${dayStart.toISOString()}::timestamptz and decided_at < ${dayEnd.toISOString()}::timestamptz order by decided_at`;
  const names = Array.from({ length: 200 }, (_, k) => `vaults/bench/transactions/t${1 + ((k * 104729) % seeded)}`);
  const lookups: number[] = [];
  for (const name of names) {
    const t = performance.now();
    await lookup(name).execute(db);
    lookups.push(performance.now() - t);
  }
  const ranges: number[] = [];
  let rangeRows = 0;
  for (let k = 0; k < 10; k++) {
    const t = performance.now();
    rangeRows = (await range.execute(db)).rows.length;
    ranges.push(performance.now() - t);
  }
  return {
    rows: seeded,
    lookupMedianMs: summarize(lookups).medianMs,
    lookupPlan: await plan(db, lookup(names[0]!)),
    rangeMedianMs: summarize(ranges).medianMs,
    rangeRows,
    rangePlan: await plan(db, range),
  };
}

async function plan(db: Db, query: ReturnType<typeof sql>): Promise<string> {
  const compiled = query.compile(db);
  const { rows } = await db.executeQuery<{ "QUERY PLAN": string }>({
    ...compiled,
    sql: `explain (analyze, costs off, timing off, summary on) ${compiled.sql}`,
  });
  return rows.map((r) => r["QUERY PLAN"]).join("\n");
}

export function reportQueries(figures: QueryFigure[], log: (line: string) => void): void {
  for (const f of figures) {
    log(
      `  ${f.rows.toLocaleString("en").padStart(11)} rows: name lookup median ${fmt(f.lookupMedianMs)}   one-day range (${f.rangeRows.toLocaleString("en")} rows) median ${fmt(f.rangeMedianMs)}`,
    );
  }
  const last = figures[figures.length - 1];
  if (!last) return;
  log(`  plan of the name lookup at ${last.rows.toLocaleString("en")} rows:`);
  for (const line of summarisePlan(last.lookupPlan)) log(`    ${line}`);
  log(`  plan of the one-day range query at ${last.rows.toLocaleString("en")} rows:`);
  for (const line of summarisePlan(last.rangePlan)) log(`    ${line}`);
}

/** A plan over many partitions repeats one line per partition: keep the first few of each. */
function summarisePlan(text: string): string[] {
  const lines = text.split("\n");
  return lines.length <= 24 ? lines : [...lines.slice(0, 20), `… (${lines.length - 22} more lines)`, ...lines.slice(-2)];
}
