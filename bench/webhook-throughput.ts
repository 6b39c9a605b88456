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
import type { DatabaseHandle } from "../src/db/connect.js";
import { silentLogger } from "../src/log.js";
import { startService } from "../src/service.js";

const run = promisify(execFile);

export interface ThroughputResult {
  label: string;
  perSecond: number;
  requests: number;
  latencyP50: number;
  latencyP99: number;
  non2xx: number;
}

/** The example bundle with its windows and every rule that reads them removed. */
export function bundleWithoutWindows(policies: string): string {
  const doc = parse(readFileSync(path.join(policies, "policy.yaml"), "utf8")) as { windows?: unknown; rules: { when: unknown }[]; version: string };
  delete doc.windows;
  doc.rules = doc.rules.filter((r) => !JSON.stringify(r.when).includes('"velocity.'));
  doc.version = `${doc.version}-no-windows`;
  const dir = mkdtempSync(path.join(tmpdir(), "countersign-bench-policy-"));
  writeFileSync(path.join(dir, "policy.yaml"), stringify(doc));
  return dir;
}

export async function benchThroughput(
  database: DatabaseHandle,
  policies: string,
  label: string,
  seconds: number,
  env: Record<string, string> = {},
): Promise<ThroughputResult> {
  const config = loadConfig({ COUNTERSIGN_HOST: "127.0.0.1", COUNTERSIGN_PORT: "0", COUNTERSIGN_POLICIES: policies, COUNTERSIGN_MIGRATE: "false", ...env });
  const service = await startService({ config, logger: silentLogger, database });
  try {
    const client = path.join(import.meta.dirname, "load-client.ts");
    const { stdout } = await run(process.execPath, ["--import", "tsx", client, `${service.url}/v1/cosigner/webhook`, String(seconds), "16"], {
      timeout: (seconds + 60) * 1000,
    });
    const r = JSON.parse(stdout.trim().split("\n").pop()!) as Omit<ThroughputResult, "label">;
    return { label, ...r };
  } finally {
    await service.stop();
  }
}
