/**
 * `countersign policy check [DIR]`: validate the bundle, run its tests, print `N passed, N failed`.
 * It refuses what `serve` would refuse, windows longer than the ledger's retention included
 * (COUNTERSIGN_LEDGER_RETENTION as set where the check runs, else the service's default).
 */
import { ledgerRetention } from "../config.js";
import { runPolicyTests } from "../policy/check.js";
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
  const results = await runPolicyTests(bundle);
  for (const r of results.filter((x) => !x.passed)) {
    out(`FAIL ${r.file}: ${r.name}`);
    for (const f of r.failures) out(`     ${f}`);
  }
  const passed = results.filter((r) => r.passed).length;
  const failed = results.length - passed;
  out(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
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
