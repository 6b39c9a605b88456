/** examples/policy-repo: its bundle passes its own tests, and its workflow runs check and replay. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { runPolicyTests } from "../../src/policy/check.js";
import { loadBundle } from "../../src/policy/load.js";

const REPO = path.resolve(import.meta.dirname, "../../examples/policy-repo");

describe("the policy-repository example", () => {
  it("its bundle loads and every case passes", async () => {
    const loaded = await loadBundle(path.join(REPO, "policies"));
    if (!loaded.ok) throw loaded.error;
    const results = await runPolicyTests(loaded.value);
    expect(results.length).toBeGreaterThan(0);
    expect(results.filter((r) => !r.passed)).toEqual([]);
  });

  it("its workflow runs policy check, then replay with --fail-on-change and posts the Markdown", () => {
    const workflow = parseYaml(readFileSync(path.join(REPO, ".github/workflows/policy.yml"), "utf8")) as {
      on: { pull_request: unknown };
      jobs: Record<string, { steps: { run?: string; env?: Record<string, string> }[] }>;
    };
    expect(workflow.on.pull_request).toBeDefined();
    const steps = Object.values(workflow.jobs).flatMap((j) => j.steps);
    const runs = steps.map((s) => s.run ?? "");
    const check = runs.findIndex((r) => r.includes("npx countersign policy check policies"));
    const replay = runs.findIndex((r) => /npx countersign policy replay --policies policies .*--format markdown --fail-on-change/.test(r));
    expect(check).toBeGreaterThanOrEqual(0);
    expect(replay).toBeGreaterThan(check);
    expect(steps[replay]!.env?.DATABASE_URL).toContain("secrets.REPLICA_DATABASE_URL");
    expect(runs.some((r) => r.includes("gh pr comment") && r.includes("--body-file replay.md"))).toBe(true);
  });
});
