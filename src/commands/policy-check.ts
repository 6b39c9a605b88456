/**
 * `countersign policy check [DIR]`: validate the bundle, run its tests, print `N passed, N failed`.
 * It refuses what `serve` would refuse, windows longer than the ledger's retention included
 * (COUNTERSIGN_LEDGER_RETENTION as set where the check runs, else the service's default).
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import { ledgerRetention } from "../config.js";
import { type CaseResult, TEST_FILE, runPolicyTests } from "../policy/check.js";
import { loadBundle } from "../policy/load.js";
import type { PolicyBundle } from "../policy/types.js";
import { windowPastRetention } from "../policy/window-retention.js";

export async function policyCheck(dir: string, out: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const loaded = await loadBundle(dir);
  if (!loaded.ok) return refuse(loaded.error.message, out);
  const pastRetention = retentionProblem(loaded.value, env);
  if (pastRetention !== null) return refuse(pastRetention, out);
  const bundle = loaded.value;
  out(`policy ${bundle.version} (${bundle.digest.slice(0, 12)}) in ${dir}: ${bundle.rules.length} rules, ${bundle.windows.length} windows`);
  const results = [...(await runPolicyTests(bundle)), ...(await testFilesNotRun(bundle.directory))];
  for (const r of results.filter((x) => !x.passed)) {
    out(`FAIL ${r.file}: ${r.name}`);
    for (const f of r.failures) out(`     ${f}`);
  }
  const passed = results.filter((r) => r.passed).length;
  const failed = results.length - passed;
  out(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

const YAML_FILE = /\.ya?ml$/i;

/**
 * YAML files under tests/ that no run reads: in a subdirectory (only tests/ itself is read; its
 * subdirectories hold transaction bodies) or named `.YAML`. A pull request adding its cases there
 * passed with "N passed, 0 failed" without running them, so the reviewer took them as checked.
 * Each is a failed case here; the service, which runs the same tests at load, is unchanged.
 */
async function testFilesNotRun(bundleDir: string): Promise<CaseResult[]> {
  const tests = path.join(bundleDir, "tests");
  let entries: string[];
  try {
    entries = await readdir(tests, { recursive: true });
  } catch {
    return []; // no tests/ (or unreadable: runPolicyTests has already failed for it)
  }
  return entries
    .filter((entry) => YAML_FILE.test(entry) && (entry.includes(path.sep) || !TEST_FILE.test(entry)))
    .sort()
    .map((entry) => ({
      file: path.join("tests", entry),
      name: "(not run)",
      passed: false,
      failures: ["policy tests are read from tests/ itself, from files named *.yaml, *.yml or *.json: move or rename it"],
    }));
}

function refuse(problem: string, out: (line: string) => void): number {
  out(problem);
  out("0 passed, 1 failed");
  return 1;
}

function retentionProblem(bundle: PolicyBundle, env: NodeJS.ProcessEnv): string | null {
  const retention = ledgerRetention(env);
  return "problem" in retention ? retention.problem : windowPastRetention(bundle, retention.seconds);
}
