/**
 * CI's closing line (scripts/ci-summary.ts) counts what failed, not only failed tests: fed vitest's
 * own JSON report of a run where a file failed to load, a `beforeAll` failed or a rejection went
 * unhandled, it says so, names the failure, and exits non-zero.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { summarize, type VitestReport } from "../../../scripts/ci-summary.js";
import { scratchDir } from "../../support/scratch.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const VITEST = path.join(ROOT, "node_modules/vitest/vitest.mjs");
const TSX = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
const SUMMARY = path.join(ROOT, "scripts/ci-summary.ts");

function run(args: string[], cwd: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", CI: "true" }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.resume();
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout }));
  });
}

/** Runs vitest on these test files in a folder of their own, then the summary on its report. */
async function ciOf(files: Record<string, string>): Promise<{ vitestStatus: number | null; code: number | null; lines: string[] }> {
  const dir = scratchDir("ci-summary");
  writeFileSync(path.join(dir, "vitest.config.mjs"), `export default { test: { include: ["*.test.mjs"], globals: true } };\n`);
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const vitest = await run([VITEST, "run", "--config", "vitest.config.mjs", "--reporter=json", "--outputFile.json=report.json"], dir);
  const summary = await run([TSX, SUMMARY, "report.json", String(vitest.code)], dir);
  return { vitestStatus: vitest.code, code: summary.code, lines: summary.stdout.trim().split("\n") };
}

const PASSING = `it("passes", () => expect(1).toBe(1));\n`;

describe("the CI summary on vitest's own report", () => {
  it("counts a file that failed to load and a failed beforeAll, names them, and exits 1", async () => {
    const ci = await ciOf({
      "passing.test.mjs": PASSING,
      "broken.test.mjs": `throw new Error("cannot load");\n`,
      "hook.test.mjs": `beforeAll(() => { throw new Error("no database"); });\nit("needs the database", () => {});\n`,
    });
    expect(ci.vitestStatus).toBe(1);
    expect(ci.code).toBe(1);
    expect(ci.lines.at(-1)).toMatch(/^1 passed, 2 failed\b/);
    expect(ci.lines).toEqual(expect.arrayContaining([expect.stringMatching(/^failed: broken\.test\.mjs \(.*cannot load/), expect.stringMatching(/^failed: hook\.test\.mjs/)]));
  }, 120_000);

  it("counts an unhandled rejection in a run whose every test passed", async () => {
    const ci = await ciOf({ "late.test.mjs": `it("passes, then rejects", () => { Promise.reject(new Error("late")); });\n` });
    expect(ci.vitestStatus).toBe(1);
    expect(ci.code).toBe(1);
    expect(ci.lines.at(-1)).toBe("1 passed, 1 failed");
  }, 120_000);

  it("ends a clean run with 0 failed and exits 0", async () => {
    const ci = await ciOf({ "passing.test.mjs": PASSING });
    expect([ci.vitestStatus, ci.code, ci.lines]).toEqual([0, 0, ["1 passed, 0 failed"]]);
  }, 120_000);
});

describe("summarize", () => {
  const file = (name: string, status: string, tests: string[], message = "") => ({ name: `/repo/${name}`, status, message, assertionResults: tests.map((s) => ({ status: s })) });
  const report = (over: Partial<VitestReport>): VitestReport => ({ numPassedTests: 0, numFailedTests: 0, success: true, testResults: [], ...over });

  it("adds a file that failed to load to the failed tests, and names both files", () => {
    const summary = summarize(
      report({
        numPassedTests: 3,
        numFailedTests: 1,
        success: false,
        testResults: [
          file("test/a.test.ts", "failed", ["passed", "failed"]),
          file("test/b.test.ts", "failed", [], "shared/x not found\n  at y"),
          file("test/c.test.ts", "passed", ["passed", "passed"]),
        ],
      }),
      1,
      "/repo",
    );
    expect(summary).toEqual({ named: ["failed: test/a.test.ts (1 test)", "failed: test/b.test.ts (shared/x not found)"], failed: 2, line: "3 passed, 2 failed" });
  });

  it("reads a missing report as a failure", () => {
    expect(summarize(undefined, 1, "/repo")).toMatchObject({ failed: 1, line: "0 passed, 1 failed" });
  });

  it("a clean report is 0 failed, with the skipped beside it", () => {
    const clean = summarize(report({ numPassedTests: 2, numPendingTests: 1, testResults: [file("test/a.test.ts", "passed", ["passed", "passed", "skipped"])] }), 0, "/repo");
    expect(clean).toEqual({ named: [], failed: 0, line: "2 passed, 0 failed, 1 skipped" });
  });
});
