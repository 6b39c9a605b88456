/**
 * Decisions per second through the whole webhook path (HTTP, parsing, facts, locks, evaluation,
 * committed row and charges) with the example policy's velocity windows, against the same policy
 * without windows, measured one after the other in the same run on the same database server.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { parse, stringify } from "yaml";
import { loadConfig } from "../src/config.js";
import type { DatabaseHandle } from "../src/database.js";
import { silentLogger } from "../src/log.js";
import { startService } from "../src/service.js";
import { exampleEnvFor } from "../test/support/example-bundle.js";
import { withCpuSplit, type CpuSplit, type TicksReader } from "./cpu-split.js";

const run = promisify(execFile);

/** What bench/load-client.ts reports (latencies in milliseconds, exact over every response). */
export interface LoadResult {
  perSecond: number;
  requests: number;
  latencyP50: number;
  latencyP99: number;
  latencyP999: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** The load client's own CPU time during the measured run. */
  clientCpuMs?: number;
  /** The machine's CPU split during the measured run (not the warm-up), with the watched processes' and the load client's CPU time. */
  cpu?: CpuSplit | null;
}

export interface ThroughputResult extends LoadResult {
  label: string;
}

/**
 * Seconds of load before each measured run, not counted (BENCH_WARMUP_SECONDS). A freshly started
 * service spends its first seconds compiling: V8's optimizing compiler took a fifth of the
 * service's CPU 3–8 s into a run and a twentieth after 15 s, and the first 4 s of decisions ran at
 * about 60% of the rate reached later. A long-running service lives in that later state.
 */
export const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 10);

/**
 * Runs the load client (its own process) against a webhook URL on loopback: a warm-up at the same
 * load (unless `warmup: false`), then the measured run, watching the CPU time of `watched`.
 */
export async function runLoad(
  url: string,
  options: { seconds: number; connections: number; wallets?: number; warmup?: boolean; watched?: Record<string, TicksReader> },
): Promise<LoadResult> {
  const client = path.join(import.meta.dirname, "load-client.ts");
  const once = async (seconds: number) => {
    const args = ["--import", "tsx", client, url, String(seconds), String(options.connections), String(options.wallets ?? 10_000)];
    const { stdout } = await run(process.execPath, args, { timeout: (seconds + 60) * 1000 });
    return JSON.parse(stdout.trim().split("\n").pop()!) as LoadResult;
  };
  if (options.warmup !== false && WARMUP_SECONDS > 0) await once(WARMUP_SECONDS);
  const { value, cpu } = await withCpuSplit(() => once(options.seconds), options.watched);
  if (cpu && value.clientCpuMs !== undefined) cpu.processMs = { ...cpu.processMs, "load client": value.clientCpuMs };
  return { ...value, cpu };
}

/** The example bundle with its windows and every rule that reads them removed. */
export function bundleWithoutWindows(policies: string): string {
  const doc = parse(readFileSync(path.join(policies, "policy.yaml"), "utf8")) as { windows?: unknown; rules: { when: unknown }[]; version: string };
  delete doc.windows;
  doc.rules = doc.rules.filter((r) => !JSON.stringify(r.when).includes('"velocity.'));
  doc.version = `${doc.version}-no-windows`;
  return writeBundle(doc);
}

/**
 * The example bundle with every limit a velocity window is compared against raised out of reach,
 * so that any number of transfers from one wallet are allowed (the hot-wallet figure).
 */
export function bundleWithLimitsOutOfReach(policies: string): string {
  const doc = parse(readFileSync(path.join(policies, "policy.yaml"), "utf8")) as { rules: { when: unknown }[]; version: string };
  for (const rule of doc.rules) rule.when = raiseVelocityLimits(rule.when);
  doc.version = `${doc.version}-limits-out-of-reach`;
  return writeBundle(doc);
}

function raiseVelocityLimits(node: unknown): unknown {
  if (Array.isArray(node)) {
    const comparesVelocity = node.some((x) => JSON.stringify(x).startsWith('{"var":"velocity.'));
    return node.map((x) =>
      comparesVelocity && typeof x === "number" ? 1e12 : comparesVelocity && typeof x === "string" && /^[0-9.]+$/.test(x) ? "1000000000000000" : raiseVelocityLimits(x),
    );
  }
  if (node && typeof node === "object") return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, raiseVelocityLimits(v)]));
  return node;
}

export function writeBundle(doc: unknown): string {
  const dir = mkdtempSync(path.join(tmpdir(), "countersign-bench-policy-"));
  writeFileSync(path.join(dir, "policy.yaml"), stringify(doc));
  return dir;
}

export async function benchThroughput(database: DatabaseHandle, policies: string, label: string, seconds: number, env: Record<string, string> = {}): Promise<ThroughputResult> {
  const config = loadConfig({
    COUNTERSIGN_HOST: "127.0.0.1",
    COUNTERSIGN_PORT: "0",
    COUNTERSIGN_POLICIES: policies,
    COUNTERSIGN_MIGRATE: "false",
    ...exampleEnvFor(policies),
    ...env,
  });
  const service = await startService({ config, logger: silentLogger, database });
  try {
    return { label, ...(await runLoad(`${service.url}/v1/cosigner/webhook`, { seconds, connections: 16, warmup: false })) };
  } finally {
    await service.stop();
  }
}
