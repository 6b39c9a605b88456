/**
 * `npm run bench`: prints the performance figures countersign tracks, each beside a baseline
 * measured in the same run. Bounded: a few minutes on a 2-core machine.
 *
 * Groups (BENCH_ONLY=<name>[,<name>...], default `throughput`; `all` runs every one):
 *   throughput  issue 13's figures on a durable server (bench/throughput.ts)
 *   latency     decide() in-process, Postgres and PGlite
 *   velocity    a window's read with 1,000 vs 1,000,000 charges
 *   webhook     in-process webhook throughput with and without windows
 *   platform    webhook throughput with the platform check off, and on against an API at 1 ms and 50 ms
 *   replay      policy replay over recorded decisions
 *   audit       audit sealing and audit queries
 *   dollars     decide() in-process with and without a dollar window
 */
import path from "node:path";
import { benchDecisionLatency } from "./decision-latency.js";
import { benchDollarWindow } from "./dollar-window.js";
import { pgliteBenchDatabase, postgresBenchDatabase, type BenchDatabase } from "./databases.js";
import { fmt } from "./stats.js";
import { benchVelocityWindow } from "./velocity-window.js";
import { benchThroughput, bundleWithoutWindows } from "./webhook-throughput.js";
import { benchAuditQueries, benchSealing, reportQueries } from "./audit.js";
import { benchReplay } from "./replay.js";
import { cleanUpAll, cleanUpOnSignals } from "./processes.js";
import { throughputFigures } from "./throughput.js";
import { benchPlatformCheck } from "./platform-check.js";

const POLICIES = path.resolve(import.meta.dirname, "../policies");
const DECISIONS = Number(process.env.BENCH_DECISIONS ?? 10_000);
const LOAD_SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 10);
const AUDIT_ROWS = Number(process.env.BENCH_AUDIT_ROWS ?? 1_000_000);
const REPLAY_ROWS = Number(process.env.BENCH_REPLAY_ROWS ?? 100_000);
const GROUPS = ["throughput", "latency", "velocity", "webhook", "platform", "replay", "audit", "dollars"] as const;
const DOLLAR_SECONDS = Number(process.env.BENCH_DOLLAR_SECONDS ?? 20);
type Group = (typeof GROUPS)[number];
const BASELINE_REF = process.env.BENCH_BASELINE_REF ?? "32c2789";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

function chosenGroups(): Set<Group> {
  const asked = (process.env.BENCH_ONLY ?? "throughput")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (asked.includes("all")) return new Set(GROUPS);
  const unknown = asked.filter((a) => !(GROUPS as readonly string[]).includes(a));
  if (unknown.length > 0) throw new Error(`BENCH_ONLY: unknown group(s) ${unknown.join(", ")}; known: ${GROUPS.join(", ")}, all`);
  return new Set(asked as Group[]);
}

async function withDatabase<T>(open: () => Promise<BenchDatabase>, run: (db: BenchDatabase) => Promise<T>): Promise<T> {
  const db = await open();
  try {
    return await run(db);
  } finally {
    await db.close();
  }
}

async function main(): Promise<void> {
  const groups = chosenGroups();
  if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error("BENCH_ROUNDS: a whole number of rounds, at least 1");
  cleanUpOnSignals();
  console.log(`countersign bench — node ${process.version}, groups: ${[...groups].join(", ")} (BENCH_ONLY)`);
  try {
    if (groups.has("throughput")) await throughputFigures({ seconds: LOAD_SECONDS, baselineRef: BASELINE_REF, rounds: ROUNDS });
    if (groups.has("latency")) await latencyFigures();
    if (groups.has("velocity")) await velocityFigures();
    if (groups.has("webhook")) await webhookFigures();
    if (groups.has("platform")) await platformCheckFigures();
    if (groups.has("replay")) await replayFigures();
    if (groups.has("audit")) await auditFigures();
    if (groups.has("dollars")) await dollarFigures();
  } finally {
    await cleanUpAll();
  }
}

async function replayFigures(): Promise<void> {
  console.log(
    `\npolicy replay: ${REPLAY_ROWS.toLocaleString("en")} recorded decisions (BENCH_REPLAY_ROWS) re-evaluated by a candidate that lowers a limit, beside plain evaluation of the same facts in memory`,
  );
  await withDatabase(postgresBenchDatabase, async (db) => {
    const r = await benchReplay(db.handle.db, POLICIES, REPLAY_ROWS);
    console.log(
      `  replay (stream rows, rebuild facts, evaluate): ${r.replayPerSecond.toFixed(0).padStart(7)} decisions/s   (${r.changed.toLocaleString("en")} changed; seeded in ${r.seedSeconds.toFixed(1)} s)`,
    );
    console.log(
      `  plain evaluation, facts in memory:            ${r.evaluatePerSecond.toFixed(0).padStart(7)} decisions/s   ratio replay/evaluation ${(r.replayPerSecond / r.evaluatePerSecond).toFixed(2)}`,
    );
  });
}

async function auditFigures(): Promise<void> {
  console.log(`\naudit sealing: webhook decisions/s with the sealer off and on (goal: ratio >= 0.95), ${LOAD_SECONDS} s runs alternated off/on/off/on`);
  await withDatabase(postgresBenchDatabase, async (db) => {
    const s = await benchSealing(db.handle, POLICIES, LOAD_SECONDS);
    const runs = (rs: typeof s.on) => rs.map((r) => r.perSecond.toFixed(0)).join(", ");
    console.log(`  sealing off: ${runs(s.off)} decisions/s   sealing on: ${runs(s.on)} decisions/s   ratio on/off ${s.ratio.toFixed(2)}`);
    const c = s.commitToSealed;
    console.log(`  commit to sealed at that load: p50 ${c.p50.toFixed(2)} s   p99 ${c.p99.toFixed(2)} s   max ${c.max.toFixed(2)} s   (${c.rows} rows)`);
  });
  if (AUDIT_ROWS <= 0) return;
  console.log(`\naudit queries on decisions seeded with generate_series over 12 monthly partitions: at 1% and at ${AUDIT_ROWS.toLocaleString("en")} rows (BENCH_AUDIT_ROWS)`);
  await withDatabase(postgresBenchDatabase, async (db) => {
    reportQueries(await benchAuditQueries(db.handle.db, db.url!, AUDIT_ROWS, console.log), console.log);
  });
}

async function latencyFigures(): Promise<void> {
  console.log(`\ndecision latency in-process (decide(): facts, locks, evaluation, committed row and charges), ${DECISIONS} decisions per database (BENCH_DECISIONS)`);
  for (const open of [postgresBenchDatabase, pgliteBenchDatabase]) {
    await withDatabase(open, async (db) => {
      const s = await benchDecisionLatency(db, { decisions: DECISIONS, policies: POLICIES });
      console.log(`  ${db.label.padEnd(26)} median ${fmt(s.medianMs).padStart(9)}   p99 ${fmt(s.p99Ms).padStart(9)}   (n=${s.n})`);
    });
  }
}

async function dollarFigures(): Promise<void> {
  console.log(
    `\na dollar window's cost: decide() in-process, the example bundle without and with its measure: usd window, taking turns, about ${DOLLAR_SECONDS} s each (BENCH_DOLLAR_SECONDS)`,
  );
  await withDatabase(postgresBenchDatabase, async (db) => {
    const f = await benchDollarWindow(db, { policies: POLICIES, seconds: DOLLAR_SECONDS });
    const line = (label: string, s: typeof f.with) => `  ${label.padEnd(34)} median ${fmt(s.medianMs).padStart(9)}   p99 ${fmt(s.p99Ms).padStart(9)}   (n=${s.n})`;
    console.log(line("without its dollar window", f.without));
    console.log(line("the example, dollar window included", f.with));
    console.log(`  ratio of medians with/without: ${(f.with.medianMs / f.without.medianMs).toFixed(2)}`);
  });
}

async function velocityFigures(): Promise<void> {
  console.log("\nvelocity window facts: a 24 h window's totals for a group with 1,000 vs 1,000,000 charges in it (goal: ratio <= 1.5)");
  for (const open of [postgresBenchDatabase, pgliteBenchDatabase]) {
    await withDatabase(open, async (db) => {
      const v = await benchVelocityWindow(db.handle.db, { log: () => undefined });
      const line = (r: typeof v.quiet) => `median ${fmt(r.medianMs).padStart(9)}  p99 ${fmt(r.p99Ms).padStart(9)}`;
      console.log(`  ${db.label.padEnd(26)} 1,000: ${line(v.quiet)}   1,000,000: ${line(v.hot)}   ratio median ${v.medianRatio.toFixed(2)}, p99 ${v.p99Ratio.toFixed(2)}`);
    });
  }
}

async function webhookFigures(): Promise<void> {
  console.log(
    `\nwebhook throughput in this process (service started in-process on the bench database), full HTTP path, 16 connections from a second process, ${LOAD_SECONDS} s each`,
  );
  await withDatabase(postgresBenchDatabase, async (db) => {
    const baseline = await benchThroughput(db.handle, bundleWithoutWindows(POLICIES), "example policy without windows", LOAD_SECONDS);
    const windows = await benchThroughput(db.handle, POLICIES, "example policy (3 windows)", LOAD_SECONDS);
    for (const r of [baseline, windows]) {
      console.log(`  ${r.label.padEnd(34)} ${r.perSecond.toFixed(0).padStart(6)} decisions/s   p50 ${r.latencyP50} ms   p99 ${r.latencyP99} ms   non-2xx ${r.non2xx}`);
    }
    console.log(`  ratio with/without windows: ${(windows.perSecond / baseline.perSecond).toFixed(2)}`);
  });
}

async function platformCheckFigures(): Promise<void> {
  const seconds = Math.min(LOAD_SECONDS, 12);
  console.log(
    `\nthe platform check (COUNTERSIGN_VERIFY_DELIVERIES): webhook decisions with the example policy, 16 connections from a second process, ${seconds} s each after a 3 s warm-up, same run`,
  );
  await withDatabase(postgresBenchDatabase, async (db) => {
    const results = await benchPlatformCheck(db.handle, POLICIES, seconds);
    for (const r of results) {
      console.log(
        `  ${r.label.padEnd(36)} ${r.perSecond.toFixed(0).padStart(6)} decisions/s   p50 ${r.latencyP50.toFixed(1)} ms   p99 ${r.latencyP99.toFixed(1)} ms   non-2xx ${r.non2xx}`,
      );
    }
  });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
