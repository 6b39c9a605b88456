/**
 * The closing line of CI (`.ci/run`): `N passed, N failed` from vitest's JSON report, where failed
 * counts everything that failed, not only failed tests. A file that failed to load, a failed
 * `beforeAll` or `afterAll`, or a suite that timed out has no failed test but a failed file; an
 * unhandled error or rejection is in neither, only in vitest's exit status. Each counts as failed
 * and is named above the line, so a run that failed never ends with `0 failed`.
 *
 *   npx tsx scripts/ci-summary.ts REPORT VITEST_EXIT_STATUS
 *
 * Exits 1 exactly when the line says something failed.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

/** The parts of vitest's JSON report read here. */
export interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests?: number;
  numTodoTests?: number;
  success: boolean;
  testResults: { name: string; status: string; message?: string; assertionResults: { status: string }[] }[];
}

export interface Summary {
  /** One line per failure outside a failed test: the file, or what vitest's exit status says. */
  named: string[];
  failed: number;
  line: string;
}

export function summarize(report: VitestReport | undefined, vitestStatus: number, root: string): Summary {
  if (report === undefined) {
    return { named: [`vitest wrote no report (exit status ${vitestStatus})`], failed: 1, line: "0 passed, 1 failed" };
  }
  const named: string[] = [];
  let failed = report.numFailedTests;
  for (const file of report.testResults) {
    if (file.status !== "failed") continue;
    const failedTests = file.assertionResults.filter((test) => test.status === "failed").length;
    const relative = path.relative(root, file.name);
    if (failedTests > 0) {
      named.push(`failed: ${relative} (${failedTests} ${failedTests === 1 ? "test" : "tests"})`);
    } else {
      // No test failed in it, so the file itself did: it did not load, or a hook or its suite's time failed.
      failed += 1;
      named.push(`failed: ${relative} (${firstLine(file.message) || "the file failed outside its tests"})`);
    }
  }
  if (failed === 0 && (vitestStatus !== 0 || !report.success)) {
    failed = 1;
    named.push(`failed: vitest exited ${vitestStatus} with every file passed: an unhandled error or rejection (see vitest's output above)`);
  }
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  const line = `${report.numPassedTests} passed, ${failed} failed` + (skipped ? `, ${skipped} skipped` : "");
  return { named, failed, line };
}

function firstLine(message: string | undefined): string {
  return (message ?? "").split("\n")[0]!.trim();
}

function readReport(file: string): VitestReport | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as VitestReport;
  } catch {
    return undefined;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [reportFile, status] = process.argv.slice(2);
  if (reportFile === undefined || status === undefined || !/^\d+$/.test(status)) {
    console.error("usage: ci-summary.ts REPORT VITEST_EXIT_STATUS");
    process.exit(2);
  }
  const summary = summarize(readReport(reportFile), Number(status), process.cwd());
  for (const name of summary.named) console.log(name);
  console.log(summary.line);
  process.exit(summary.failed > 0 ? 1 : 0);
}
