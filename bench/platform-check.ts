/**
 * What the platform check costs (docs/performance.md "The platform check"): webhook decisions per
 * second and their p99 with COUNTERSIGN_VERIFY_DELIVERIES=off, and with the check against a
 * simulated custody API answering in 1 ms and in 50 ms (platform-api.ts, its own process), one
 * after the other in the same run on the same database server. Every case has the same custody
 * API configured and the same synced wallets: only the check differs.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadConfig } from "../src/config.js";
import type { DatabaseHandle } from "../src/database.js";
import { silentLogger } from "../src/log.js";
import { startService } from "../src/service.js";
import { exampleEnvFor } from "../test/support/example-bundle.js";
import { startHttpProcess } from "./processes.js";
import { runLoad, type ThroughputResult } from "./webhook-throughput.js";

/** Few wallets, so that the sync before each case reads the vault in a few requests. */
const WALLETS = 100;
const WARMUP_SECONDS = 3;

interface Case {
  label: string;
  delayMs: number;
  mode: "platform" | "off";
}

const CASES: Case[] = [
  { label: "check off (API at 1 ms, sync only)", delayMs: 1, mode: "off" },
  { label: "check on, API answering in 1 ms", delayMs: 1, mode: "platform" },
  { label: "check on, API answering in 50 ms", delayMs: 50, mode: "platform" },
];

export async function benchPlatformCheck(database: DatabaseHandle, policies: string, seconds: number): Promise<ThroughputResult[]> {
  const keyDir = mkdtempSync(path.join(tmpdir(), "countersign-bench-key-"));
  const keyFile = path.join(keyDir, "service-account.pem");
  writeFileSync(keyFile, generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
  try {
    const results: ThroughputResult[] = [];
    for (const c of CASES) results.push(await runCase(database, policies, seconds, keyFile, c));
    return results;
  } finally {
    rmSync(keyDir, { recursive: true, force: true });
  }
}

async function runCase(database: DatabaseHandle, policies: string, seconds: number, keyFile: string, c: Case): Promise<ThroughputResult> {
  const api = await startHttpProcess(["--import", "tsx", path.join(import.meta.dirname, "platform-api.ts")], {
    env: { ...process.env, BENCH_API_DELAY_MS: String(c.delayMs), BENCH_API_WALLETS: String(WALLETS) },
    readyPath: "/healthz",
    label: `simulated custody API (${c.delayMs} ms)`,
  });
  try {
    const config = loadConfig({
      COUNTERSIGN_HOST: "127.0.0.1",
      COUNTERSIGN_PORT: "0",
      COUNTERSIGN_POLICIES: policies,
      ...exampleEnvFor(policies),
      COUNTERSIGN_MIGRATE: "false",
      COUNTERSIGN_API_URL: api.url,
      COUNTERSIGN_SERVICE_ACCOUNT_EMAIL: "bench@countersign.test",
      COUNTERSIGN_SERVICE_ACCOUNT_KEY_FILE: keyFile,
      COUNTERSIGN_VAULTS: "bench",
      COUNTERSIGN_ADDRESS_BOOK_REFRESH: "1h",
      COUNTERSIGN_VERIFY_DELIVERIES: c.mode,
    });
    const service = await startService({ config, logger: silentLogger, database });
    try {
      const synced = await service.background.sync!.syncAll();
      if (!synced.every((r) => r.ok)) throw new Error("the bench vault's first sync failed");
      const url = `${service.url}/v1/cosigner/webhook`;
      await runLoad(url, { seconds: WARMUP_SECONDS, connections: 16, wallets: WALLETS, warmup: false });
      return { label: c.label, ...(await runLoad(url, { seconds, connections: 16, wallets: WALLETS, warmup: false })) };
    } finally {
      await service.stop();
    }
  } finally {
    await api.stop();
  }
}
