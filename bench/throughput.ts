/**
 * The throughput group of `npm run bench` (issue 13): on one durable Postgres server, in one run,
 * the durable floor, the SQL ceiling, the HTTP ceiling, countersign (built JavaScript, its own
 * process) at 16 and 64 connections, a hot wallet, the embedded PGlite default and a baseline
 * build of an earlier commit; then the figures the ratios use measured again, round after round
 * (BENCH_ROUNDS), and the ratios against the issue's goals on the median round. bench/README.md
 * says what each figure means.
 */
import { rmSync } from "node:fs";
import { cpus } from "node:os";
import path from "node:path";
import { fmtCpuPer, fmtMachineCpu, serverTicks, type TicksReader } from "./cpu-split.js";
import { captureDecisionSql, type DecisionSql } from "./decision-sql.js";
import { checkpoint, connectClient, freshDatabase, openDurableServer, serverSettings, type DurableServer } from "./durable-server.js";
import { onCleanup } from "./processes.js";
import { replay, type ReplayResult } from "./pgbench.js";
import { sharedTransactionScript } from "./replay-script.js";
import { bareExpressCeiling, buildCheckout, countersignRun, prepareBaseline, type PreparedBaseline, type ServiceFigure } from "./service-runs.js";
import { bundleWithLimitsOutOfReach } from "./webhook-throughput.js";
import { bundleWithoutDollarWindows } from "./dollar-window.js";
import { ratioLines, type GoalInputs } from "./goals.js";
import { WARMUP_SECONDS } from "./webhook-throughput.js";

const ROOT = path.resolve(import.meta.dirname, "..");
const POLICIES = path.join(ROOT, "policies");
const WALLETS = 10_000;
const PGBENCH_CLIENTS = 8;
/** Decisions per transaction in the shared SQL ceiling's figure. */
const SHARED_MEMBERS = 4;
/** A figure measured while this much of the CPU time was stolen is flagged under the ratios. */
const STEAL_WARNING_PCT = 5;

export interface ThroughputOptions {
  seconds: number;
  /** A git ref to build and measure beside this checkout, or "none". */
  baselineRef: string;
  /** How many times the figures the ratios use are measured (at least 1). */
  rounds: number;
}

type Baseline = { ref: string; prepared: Extract<PreparedBaseline, { ok: true }> };

export async function throughputFigures(o: ThroughputOptions): Promise<void> {
  const server = await openDurableServer();
  onCleanup(server.stop);
  await printHeader(server, o);

  const serverCpu = server.postmasterPid === null ? null : serverTicks(server.postmasterPid);
  const built = await buildCheckout(ROOT);
  console.log(`  built this checkout (npm run build) in ${built.toFixed(0)} s: services run dist/ with node, no tsx`);
  console.log(`  every HTTP figure follows a ${WARMUP_SECONDS} s warm-up at the same load, not counted`);

  const sql = await captureSql(server.url);
  console.log(`\nthe database alone, ${PGBENCH_CLIENTS} clients, ${o.seconds} s each`);
  const { floor, ceiling } = await sqlFigures(server.url, sql, o.seconds, serverCpu);
  await ceilingAfterAYear(server.url, sql, o.seconds, serverCpu, ceiling);
  const shared = await sharedCeiling(server.url, sql, o.seconds, serverCpu, ceiling);
  const http = await bareExpressCeiling(ROOT, o.seconds, 16);
  console.log(
    `  HTTP ceiling: bare express, same body handling, 16 conns  ${fmtRate(http.perSecond)} req/s   p50 ${ms(http.latencyP50)}   p99 ${ms(http.latencyP99)}${fmtMachineCpu(http.cpu)}`,
  );
  printCpu("request", http.requests, http.cpu?.processMs);

  console.log(
    `\ncountersign, full webhook path (built JS, own process), example policy (3 windows), distinct transactions over ${WALLETS.toLocaleString("en")} wallets, ${o.seconds} s each`,
  );
  const at16 = await serviceAt16(server.url, serverCpu, o.seconds);
  const at64 = await countersignRun({
    root: ROOT,
    server: server.url,
    serverCpu,
    policies: POLICIES,
    seconds: o.seconds,
    connections: 64,
    wallets: WALLETS,
    label: "64 connections",
  });
  printService(at64);
  const hotPolicies = bundleWithLimitsOutOfReach(POLICIES);
  onCleanup(async () => rmSync(hotPolicies, { recursive: true, force: true }));
  const hot = await hotWallet(server.url, serverCpu, hotPolicies, o.seconds);
  console.log(`  (hot wallet: every transfer from one wallet, example policy with its limits out of reach; ratio hot/uncontended ${(hot.perSecond / at16.perSecond).toFixed(2)})`);

  console.log(`\nPGlite, the embedded default (no DATABASE_URL), ${o.seconds} s`);
  const pglite = await countersignRun({ root: ROOT, server: null, policies: POLICIES, seconds: o.seconds, connections: 16, wallets: WALLETS, label: "PGlite, 16 conns" });
  printService(pglite);

  const baseline = await openBaseline(o);
  const samePolicy = baseline ? await samePolicyRun(server.url, serverCpu, o.seconds) : null;
  const baselineFigure = baseline ? await baselineRun(baseline, server.url, serverCpu, o.seconds) : null;
  const rounds: GoalInputs[] = [{ at16, floor, ceiling, hot, baseline: baselineFigure, baselineRef: baseline?.ref ?? null, samePolicy }];
  const measured = [floor, ceiling, http, at16, at64, hot, pglite, samePolicy, baselineFigure];
  for (let r = 2; r <= o.rounds; r++) {
    console.log(`\nround ${r} of ${o.rounds} (BENCH_ROUNDS): the figures the ratios use, measured again`);
    const round = await ratioRound(server.url, sql, serverCpu, hotPolicies, baseline, o.seconds);
    rounds.push(round.inputs);
    measured.push(...round.figures);
  }
  await baseline?.prepared.remove();

  console.log(`\nratios (goals from issue 13)${o.rounds > 1 ? `, each on the median of ${o.rounds} rounds` : ""}`);
  for (const line of ratioLines(rounds)) console.log(`  ${line}`);
  console.log(`  (no goal) countersign(16) / SQL ceiling with ${SHARED_MEMBERS} decisions per transaction, first round: ${(at16.perSecond / shared).toFixed(2)}`);
  const stolen = measured.filter((f) => (f?.cpu?.stealPct ?? 0) >= STEAL_WARNING_PCT);
  if (stolen.length > 0)
    console.log(
      `  WARNING: ${stolen.length} figure(s) ran while the hypervisor took ${STEAL_WARNING_PCT}% or more of this machine's CPU (steal): those figures, and ratios built on them, understate the code`,
    );
}

/** One more round of the figures the ratios are built from, in the first round's order. */
async function ratioRound(serverUrl: string, sql: DecisionSql, serverCpu: TicksReader | null, hotPolicies: string, baseline: Baseline | null, seconds: number) {
  const { floor, ceiling } = await sqlFigures(serverUrl, sql, seconds, serverCpu);
  const at16 = await serviceAt16(serverUrl, serverCpu, seconds);
  const hot = await hotWallet(serverUrl, serverCpu, hotPolicies, seconds);
  const samePolicy = baseline ? await samePolicyRun(serverUrl, serverCpu, seconds) : null;
  const base = baseline ? await baselineRun(baseline, serverUrl, serverCpu, seconds) : null;
  return { inputs: { at16, floor, ceiling, hot, baseline: base, baselineRef: baseline?.ref ?? null, samePolicy }, figures: [floor, ceiling, at16, hot, samePolicy, base] };
}

async function serviceAt16(serverUrl: string, serverCpu: TicksReader | null, seconds: number): Promise<ServiceFigure> {
  const at16 = await countersignRun({ root: ROOT, server: serverUrl, serverCpu, policies: POLICIES, seconds, connections: 16, wallets: WALLETS, label: "16 connections" });
  printService(at16);
  return at16;
}

/**
 * This checkout on the example without its dollar window: the two windows the baseline's example
 * has, so that the ratio to the baseline compares the same work (the dollar window's own cost is
 * the dollars group's figure).
 */
async function samePolicyRun(serverUrl: string, serverCpu: TicksReader | null, seconds: number): Promise<ServiceFigure> {
  const policies = bundleWithoutDollarWindows(POLICIES);
  onCleanup(async () => rmSync(policies, { recursive: true, force: true }));
  const figure = await countersignRun({
    root: ROOT,
    server: serverUrl,
    serverCpu,
    policies,
    seconds,
    connections: 16,
    wallets: WALLETS,
    label: "16 conns, without its dollar window",
  });
  printService(figure);
  return figure;
}

async function hotWallet(serverUrl: string, serverCpu: TicksReader | null, hotPolicies: string, seconds: number): Promise<ServiceFigure> {
  const hot = await countersignRun({ root: ROOT, server: serverUrl, serverCpu, policies: hotPolicies, seconds, connections: 16, wallets: 1, label: "hot wallet, 16 conns" });
  printService(hot);
  return hot;
}

async function printHeader(server: DurableServer, o: ThroughputOptions): Promise<void> {
  const s = await serverSettings(server.url);
  console.log(`\nthroughput on a durable server — ${server.label}`);
  console.log(`  PostgreSQL ${s.version}: fsync=${s.fsync} synchronous_commit=${s.synchronousCommit} wal_sync_method=${s.walSyncMethod} full_page_writes=${s.fullPageWrites}`);
  console.log(`  node ${process.version}, ${cpus().length} CPUs, load generator on this machine over loopback, ${o.seconds} s per figure (BENCH_LOAD_SECONDS)`);
  if (s.fsync !== "on" || s.synchronousCommit !== "on") console.log("  WARNING: this server does not make commits durable; the figures flatter every decision");
}

/** The decision's statements, captured once from decide() on a database of their own. */
async function captureSql(serverUrl: string): Promise<DecisionSql> {
  const captureDb = await freshDatabase(serverUrl, "sql");
  onCleanup(captureDb.drop);
  try {
    return await captureDecisionSql(captureDb.url, POLICIES, WALLETS);
  } finally {
    await captureDb.drop();
  }
}

/** A script replayed into a fresh database (first readied by `ready`, if given) after a checkpoint. */
async function replayFresh(
  serverUrl: string,
  purpose: string,
  script: DecisionSql["floor"],
  seconds: number,
  serverCpu: TicksReader | null,
  ready?: (url: string) => Promise<void>,
): Promise<ReplayResult> {
  const watched: Record<string, TicksReader> = serverCpu ? { postgres: serverCpu } : {};
  const db = await freshDatabase(serverUrl, purpose);
  onCleanup(db.drop);
  try {
    await ready?.(db.url);
    await checkpoint(serverUrl);
    return await replay(db.url, script, { seconds, clients: PGBENCH_CLIENTS, watched });
  } finally {
    await db.drop();
  }
}

/** The durable floor and the SQL ceiling, each replayed into a fresh database after a checkpoint. */
async function sqlFigures(serverUrl: string, sql: DecisionSql, seconds: number, serverCpu: TicksReader | null): Promise<{ floor: ReplayResult; ceiling: ReplayResult }> {
  const replayed = (purpose: string, script: DecisionSql["floor"]) => replayFresh(serverUrl, purpose, script, seconds, serverCpu);
  const floor = await replayed("floor", sql.floor);
  console.log(`  durable floor: one decision row, autocommitted, ${floor.driver}   ${fmtRate(floor.perSecond)} tps${fmtMachineCpu(floor.cpu)}`);
  printCpu("transaction", floor.transactions, floor.cpu?.processMs);
  const ceiling = await replayed("ceiling", sql.ceiling);
  const roundTrips = new Set(sql.ceiling.roundTrips).size;
  console.log(
    `  SQL ceiling: one fresh allowed decision's captured statements (${roundTrips} round trips), ${ceiling.driver}   ${fmtRate(ceiling.perSecond)} tps${fmtMachineCpu(ceiling.cpu)}`,
  );
  printCpu("transaction", ceiling.transactions, ceiling.cpu?.processMs);
  return { floor, ceiling };
}

/**
 * The SQL ceiling on a database holding a year of monthly partitions of `decisions` (twelve past
 * months besides the migration's current one, three ahead and the default): what a deployment's
 * decisions cost once it has kept a year of its audit trail. Their lookups must not search every
 * month: they find a name through `final_decisions`.
 */
async function ceilingAfterAYear(serverUrl: string, sql: DecisionSql, seconds: number, serverCpu: TicksReader | null, fresh: ReplayResult): Promise<void> {
  const addPastMonths = async (url: string) => {
    const client = await connectClient(url);
    try {
      await client.query(`select decisions_create_month((date_trunc('month', now()) - make_interval(months => m))::date) from generate_series(1, 12) as m`);
    } finally {
      await client.end();
    }
  };
  const year = await replayFresh(serverUrl, "ceiling_year", sql.ceiling, seconds, serverCpu, addPastMonths);
  console.log(
    `  SQL ceiling, a year of months kept (12 more monthly partitions), ${year.driver}   ${fmtRate(year.perSecond)} tps${fmtMachineCpu(year.cpu)}   ${(year.perSecond / fresh.perSecond).toFixed(2)} of the fresh ceiling`,
  );
  printCpu("transaction", year.transactions, year.cpu?.processMs);
}

/**
 * The SQL ceiling with SHARED_MEMBERS decisions per transaction: the same captured statements, as
 * a shared transaction runs them (src/decision/batches.ts) when deliveries wait together. The
 * service shares transactions under load, so its figure can pass the one-decision ceiling; this
 * says how far its SQL goes when shared. First round only, no goal. Returns decisions per second.
 */
async function sharedCeiling(serverUrl: string, sql: DecisionSql, seconds: number, serverCpu: TicksReader | null, single: ReplayResult): Promise<number> {
  const r = await replayFresh(serverUrl, "ceiling_shared", sharedTransactionScript(sql.ceiling, SHARED_MEMBERS), seconds, serverCpu);
  const perSecond = r.perSecond * SHARED_MEMBERS;
  console.log(
    `  SQL ceiling, ${SHARED_MEMBERS} decisions per transaction (as the service shares one), ${r.driver}   ${fmtRate(perSecond)} decisions/s${fmtMachineCpu(r.cpu)}   ${(perSecond / single.perSecond).toFixed(2)} of the one-decision ceiling`,
  );
  printCpu("decision", r.transactions * SHARED_MEMBERS, r.cpu?.processMs);
  return perSecond;
}

/** The baseline ref built in a temporary worktree, kept for every round; null when skipped. */
async function openBaseline(o: ThroughputOptions): Promise<Baseline | null> {
  if (o.baselineRef === "none") {
    console.log("\nbaseline: skipped (BENCH_BASELINE_REF=none)");
    return null;
  }
  const prepared = await prepareBaseline(ROOT, o.baselineRef);
  if (!prepared.ok) {
    console.log(`\nbaseline: skipped (${prepared.reason})`);
    return null;
  }
  console.log(
    `\nbaseline: ${o.baselineRef} (${prepared.commit.slice(0, 7)}) built in a temporary worktree in ${prepared.buildSeconds.toFixed(0)} s, its own example policy, 16 conns, ${o.seconds} s`,
  );
  return { ref: o.baselineRef, prepared };
}

async function baselineRun(b: Baseline, serverUrl: string, serverCpu: TicksReader | null, seconds: number): Promise<ServiceFigure> {
  const figure = await countersignRun({
    root: b.prepared.root,
    server: serverUrl,
    serverCpu,
    policies: path.join(b.prepared.root, "policies"),
    seconds,
    connections: 16,
    wallets: WALLETS,
    label: `baseline ${b.ref}`,
  });
  printService(figure);
  return figure;
}

function printService(f: ServiceFigure): void {
  const allowed = f.allowed === null ? "" : `   allowed ${f.allowed.toLocaleString("en")} of ${f.rows.toLocaleString("en")} rows`;
  console.log(
    `  ${f.label.padEnd(22)} ${fmtRate(f.perSecond)} decisions/s   p50 ${ms(f.latencyP50)}   p99 ${ms(f.latencyP99)}   p99.9 ${ms(f.latencyP999)}   non-2xx ${f.non2xx}${f.errors ? `   errors ${f.errors}` : ""}${allowed}${fmtMachineCpu(f.cpu)}`,
  );
  printCpu("decision", f.requests, f.cpu?.processMs);
}

/** The watched processes' CPU time per unit of work, under the figure it belongs to. */
function printCpu(unit: string, units: number, processMs: Record<string, number> | undefined): void {
  const line = fmtCpuPer(unit, units, processMs);
  if (line) console.log(`    ${line}`);
}

export function fmtRate(n: number): string {
  return n.toFixed(0).padStart(6);
}

function ms(n: number): string {
  return `${n.toFixed(1)} ms`;
}
