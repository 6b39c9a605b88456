/** `countersign policy check [DIR]`: validate the bundle, run its tests, print `N passed, N failed`. */
import { runPolicyTests } from "../policy/check.js";
import { loadBundle } from "../policy/load.js";

export async function policyCheck(dir: string, out: (line: string) => void): Promise<number> {
  const loaded = await loadBundle(dir);
  if (!loaded.ok) {
    out(loaded.error.message);
    out("0 passed, 1 failed");
    return 1;
  }
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
