/**
 * What `countersign policy check` prints: text for people (unchanged since the first release:
 * `FAIL file: case`, then `N passed, N failed`), or the same content as JSON, or as JUnit XML for a
 * CI's test report (one testsuite per bundle, one testcase per policy test case, a failure with its
 * messages). A bundle refused before its tests ran counts as one failed case in every format.
 */
import type { CaseResult } from "../policy/check.js";
import { markupText } from "../review/printable.js";

export const CHECK_FORMATS = ["text", "json", "junit"] as const;
export type CheckFormat = (typeof CHECK_FORMATS)[number];

export interface PolicyCheckReport {
  directory: string;
  policy: { version: string; digest: string; rules: number; windows: number } | null;
  /** Why the bundle was refused before its tests ran: it does not load, or `serve` would refuse it. */
  refused: string | null;
  results: CaseResult[];
}

/** The cases as CI reads them: a refused bundle is one failed case of its own. */
function casesOf(report: PolicyCheckReport): CaseResult[] {
  if (report.refused === null) return report.results;
  return [{ file: report.directory, name: "(the bundle is refused)", passed: false, failures: [report.refused] }];
}

export const failedCount = (report: PolicyCheckReport): number => casesOf(report).filter((c) => !c.passed).length;

export function printCheck(report: PolicyCheckReport, format: CheckFormat, out: (line: string) => void): void {
  if (format === "json") out(JSON.stringify(jsonOf(report), null, 2));
  else if (format === "junit") out(junitOf(report));
  else printText(report, out);
}

function printText(report: PolicyCheckReport, out: (line: string) => void): void {
  const { policy, refused, results } = report;
  if (refused !== null) out(refused);
  if (policy) out(`policy ${policy.version} (${policy.digest.slice(0, 12)}) in ${report.directory}: ${policy.rules} rules, ${policy.windows} windows`);
  for (const r of results.filter((x) => !x.passed)) {
    out(`FAIL ${r.file}: ${r.name}`);
    for (const f of r.failures) out(`     ${f}`);
  }
  const failed = failedCount(report);
  out(`${casesOf(report).length - failed} passed, ${failed} failed`);
}

function jsonOf(report: PolicyCheckReport) {
  const cases = casesOf(report).map(({ file, name, passed, failures }) => ({ file, name, passed, failures }));
  const failed = failedCount(report);
  return { directory: report.directory, policy: report.policy, refused: report.refused, passed: cases.length - failed, failed, cases };
}

function junitOf(report: PolicyCheckReport): string {
  const cases = casesOf(report);
  const counts = `tests="${cases.length}" failures="${failedCount(report)}" errors="0"`;
  const properties = report.policy
    ? [
        `    <properties>`,
        `      <property name="policy.version" value="${markupText(report.policy.version)}"/>`,
        `      <property name="policy.digest" value="${report.policy.digest}"/>`,
        `    </properties>`,
      ]
    : [];
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<testsuites name="countersign policy check" ${counts}>`,
    `  <testsuite name="${markupText(report.directory)}" ${counts} skipped="0">`,
    ...properties,
    ...cases.map(testcaseOf),
    `  </testsuite>`,
    `</testsuites>`,
  ].join("\n");
}

function testcaseOf(c: CaseResult): string {
  const open = `    <testcase classname="${markupText(c.file)}" name="${markupText(c.name)}"`;
  if (c.passed) return `${open}/>`;
  const message = markupText(c.failures[0] ?? "failed");
  return `${open}>\n      <failure message="${message}" type="policy-check">${markupText(c.failures.join("\n"))}</failure>\n    </testcase>`;
}
