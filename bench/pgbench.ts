/**
 * Runs a replay script (bench/replay-script.ts) for a fixed time with concurrent clients:
 * pgbench where it is installed, else a small Node driver that sends the same commands (labelled
 * as such: its figures are not pgbench's).
 */
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { connectClient } from "./durable-server.js";
import { foldToDigits, renderPgbenchScript, type ReplayScript } from "./replay-script.js";
import { reapedChildrenTicks, withCpuSplit, type CpuSplit, type TicksReader } from "./cpu-split.js";

const run = promisify(execFile);

export interface ReplayResult {
  perSecond: number;
  transactions: number;
  /** `pgbench -M prepared`, `pgbench -M simple` or the Node driver. */
  driver: string;
  /** The machine's CPU split during the run. */
  cpu?: CpuSplit | null;
}

/** BENCH_PGBENCH names the binary; `none` forces the Node driver. */
export function findPgbench(): string | undefined {
  if (process.env.BENCH_PGBENCH === "none") return undefined;
  const candidates = [process.env.BENCH_PGBENCH, "/usr/bin/pgbench"];
  try {
    candidates.push(path.join(execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim(), "pgbench"));
  } catch {
    // no pg_config
  }
  for (const c of candidates) {
    if (!c) continue;
    try {
      execFileSync(c, ["--version"], { stdio: "ignore" });
      return c;
    } catch {
      // not there
    }
  }
  return undefined;
}

/** Replays `script`, watching the CPU time of `watched` (pgbench's own is added where it runs). */
export async function replay(url: string, script: ReplayScript, options: { seconds: number; clients: number; watched?: Record<string, TicksReader> }): Promise<ReplayResult> {
  const pgbench = findPgbench();
  const watched = pgbench ? { ...options.watched, pgbench: reapedChildrenTicks() } : options.watched;
  const { value, cpu } = await withCpuSplit(() => (pgbench ? runPgbench(pgbench, url, script, options) : runNodeDriver(url, script, options)), watched);
  return { ...value, cpu };
}

async function runPgbench(bin: string, url: string, script: ReplayScript, o: { seconds: number; clients: number }): Promise<ReplayResult> {
  const dir = mkdtempSync(path.join(tmpdir(), "countersign-pgbench-"));
  try {
    const file = path.join(dir, "decision.sql");
    writeFileSync(file, renderPgbenchScript(script));
    const args = ["-n", "-M", script.mode, "-c", String(o.clients), "-j", String(Math.min(2, o.clients)), "-T", String(o.seconds), "-f", file, url];
    let stdout: string;
    try {
      ({ stdout } = await run(bin, args, { timeout: (o.seconds + 60) * 1000, maxBuffer: 16 << 20 }));
    } catch (error) {
      const e = error as { stderr?: string; message: string };
      throw new Error(`pgbench failed: ${(e.stderr ?? e.message).split("\n").filter(Boolean).slice(-4).join(" | ")}`, { cause: error });
    }
    return { ...parsePgbenchOutput(stdout), driver: `pgbench -M ${script.mode}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function parsePgbenchOutput(stdout: string): { perSecond: number; transactions: number } {
  const tps = /tps = ([0-9.]+) \(without initial connection time\)/.exec(stdout) ?? /tps = ([0-9.]+)/.exec(stdout);
  const processed = /number of transactions actually processed: ([0-9]+)/.exec(stdout);
  if (!tps || !processed) throw new Error(`pgbench printed no tps: ${stdout.slice(-300)}`);
  return { perSecond: Number(tps[1]), transactions: Number(processed[1]) };
}

/** The same commands over pg's simple protocol, `\set` variables computed here. */
async function runNodeDriver(url: string, script: ReplayScript, o: { seconds: number; clients: number }): Promise<ReplayResult> {
  const deadline = performance.now() + o.seconds * 1000;
  let transactions = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: o.clients }, async () => {
      const client = await connectClient(url);
      try {
        while (performance.now() < deadline) {
          const vars = nodeVariables(script);
          for (const command of script.commands) await client.query(substitute(command, vars).replaceAll("\\;", ";"));
          transactions++;
        }
      } finally {
        await client.end();
      }
    }),
  );
  return { perSecond: transactions / ((performance.now() - started) / 1000), transactions, driver: "Node driver (pgbench not found), simple protocol" };
}

function nodeVariables(script: ReplayScript): Map<string, bigint> {
  const vars = new Map<string, bigint>();
  for (const v of script.variables) {
    if (v.kind === "random") {
      const span = v.max - v.min + 1n;
      vars.set(v.name, v.min + ((BigInt(Math.floor(Math.random() * 2 ** 52)) * BigInt(Math.floor(Math.random() * 2 ** 52))) % span));
    } else {
      const hash = BigInt.asIntN(64, (vars.get(v.of)! + BigInt(v.seed)) * 0x9e3779b97f4a7c15n);
      vars.set(v.name, v.digits === undefined ? hash : foldToDigits(hash, v.digits));
    }
  }
  return vars;
}

function substitute(command: string, vars: Map<string, bigint>): string {
  return command.replace(/(?<!:):([a-z][a-z0-9_]*)/g, (whole, name: string) => (vars.has(name) ? String(vars.get(name)) : whole));
}
