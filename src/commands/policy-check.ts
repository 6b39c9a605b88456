/**
 * `countersign policy check [DIR]`: validate the bundle, run its tests, print `N passed, N failed`
 * (or the same as JSON or JUnit XML for CI, policy-check-output.ts). It refuses what `serve` would
 * refuse, windows longer than the ledger's retention included (COUNTERSIGN_LEDGER_RETENTION as set
 * where the check runs, else the service's default), and a bundle with no test case at all unless
 * told to allow it: a pull request deleting every test would otherwise pass as "0 failed".
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import { ledgerRetention } from "../config.js";
import { type CaseResult, TEST_FILE, runPolicyTests } from "../policy/check.js";
import { loadBundle } from "../policy/load.js";
import type { PolicyBundle } from "../core/policy/types.js";
import { windowPastRetention } from "../policy/window-retention.js";
import { CHECK_FORMATS, failedCount, printCheck, type CheckFormat, type PolicyCheckReport } from "./policy-check-output.js";

export { CHECK_FORMATS, type CheckFormat };

export interface PolicyCheckOptions {
  allowNoTests?: boolean;
  format?: CheckFormat;
  env?: NodeJS.ProcessEnv;
}

export async function policyCheck(dir: string, out: (line: string) => void, options: PolicyCheckOptions = {}): Promise<number> {
  const report = await checkBundle(dir, options.allowNoTests ?? false, options.env ?? process.env);
  printCheck(report, options.format ?? "text", out);
  return failedCount(report) === 0 ? 0 : 1;
}

async function checkBundle(dir: string, allowNoTests: boolean, env: NodeJS.ProcessEnv): Promise<PolicyCheckReport> {
  const refused = (problem: string): PolicyCheckReport => ({ directory: dir, policy: null, refused: problem, results: [] });
  const loaded = await loadBundle(dir);
  if (!loaded.ok) return refused(loaded.error.message);
  const pastRetention = retentionProblem(loaded.value, env);
  if (pastRetention !== null) return refused(pastRetention);
  const bundle = loaded.value;
  const results = [...(await runPolicyTests(bundle)), ...(await testFilesNotRun(bundle.directory))];
  if (results.length === 0 && !allowNoTests) results.push(NO_TESTS);
  const policy = { version: bundle.version, digest: bundle.digest, rules: bundle.rules.length, windows: bundle.windows.length };
  return { directory: dir, policy, refused: null, results };
}

const NO_TESTS: CaseResult = {
  file: "tests",
  name: "(no test cases)",
  passed: false,
  failures: ["the bundle has no test cases in tests/, so nothing it decides is checked: add cases (tests/*.yaml), or pass --allow-no-tests"],
};

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

function retentionProblem(bundle: PolicyBundle, env: NodeJS.ProcessEnv): string | null {
  const retention = ledgerRetention(env);
  return "problem" in retention ? retention.problem : windowPastRetention(bundle, retention.seconds);
}
