/**
 * examples/policy-repo: its bundle passes its own tests, and its workflow runs check and replay
 * with the countersign release it pins (exact version, integrity in its lock file), never a name
 * fetched unpinned.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { runPolicyTests } from "../../../src/policy/check.js";
import { loadBundle } from "../../../src/policy/load.js";

const REPO = path.resolve(import.meta.dirname, "../../../examples/policy-repo");

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
    const check = runs.findIndex((r) => r.includes("npx --no-install countersign policy check policies"));
    const replay = runs.findIndex((r) => /npx --no-install countersign policy replay --policies policies .*--format markdown --fail-on-change/.test(r));
    expect(check).toBeGreaterThanOrEqual(0);
    expect(replay).toBeGreaterThan(check);
    expect(steps[replay]!.env?.DATABASE_URL).toContain("secrets.REPLICA_DATABASE_URL");
    expect(runs.some((r) => r.includes("gh pr comment") && r.includes("--body-file replay.md"))).toBe(true);
  });

  it("installs only the release it pins: npm ci from its lock file, an exact version, npx that never fetches", () => {
    const workflow = readFileSync(path.join(REPO, ".github/workflows/policy.yml"), "utf8");
    const commands = workflow.split("\n").filter((line) => !line.trim().startsWith("#"));
    expect(commands.some((line) => /\bnpm ci --ignore-scripts\b/.test(line))).toBe(true);
    expect(commands.filter((line) => /\bnpm (install|i|add)\b|\bnpm exec\b|\bCOUNTERSIGN_VERSION\b/.test(line))).toEqual([]);
    expect(commands.filter((line) => /\bnpx\b/.test(line) && !/\bnpx --no-install countersign\b/.test(line))).toEqual([]);
    const manifest = JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect(manifest.dependencies).toEqual({ "@countersign/countersign": expect.stringMatching(/^\d+\.\d+\.\d+$/) });
    const released = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../../package.json"), "utf8")) as { name: string; version: string };
    expect(manifest.dependencies[released.name]).toBe(released.version);
  });
});
