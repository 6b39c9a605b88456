/**
 * The command line as commander parses it: --help on every command and group, --version, usage
 * errors with exit 2 that run nothing, and `policy check` failing on a bundle without tests and
 * printing JSON or JUnit XML for CI.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { countersignCommandLine } from "../../../src/cli/commands.js";
import { runCli } from "../../support/cli.js";
import { EXAMPLE_POLICIES, writeBundle } from "../../support/service.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const INTERNAL_ALLOWS = `version: "t.1"\ndefault: deny\nrules:\n  - id: internal\n    decision: allow\n    when: {"var": "transfer.destination.internal"}\n`;
const TRANSFER = `{name: vaults/v1/transactions/t1, details: {assetTransfer: {asset: assets/native.ethereum-mainnet, amount: "1", source: vaults/v1/wallets/a, destination: vaults/v1/wallets/b}}}`;
const ONE_RIGHT_ONE_WRONG = `cases:\n  - {name: "internal <allowed> & signed", transaction: ${TRANSFER}, expect: allow}\n  - {name: expects the wrong thing, transaction: ${TRANSFER}, expect: deny}\n`;

/** Runs the command line in this process, capturing what it prints. */
async function inProcess(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await countersignCommandLine(argv, { out: (l) => stdout.push(l), fail: (l) => stderr.push(l) });
  return { code, stdout: stdout.join("\n"), stderr: stderr.join("\n") };
}

/** The subcommands a help text lists under "Commands:", but `help` itself. */
function subcommandsOf(help: string): string[] {
  const section = help.split(/^Commands:$/m)[1] ?? "";
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((m) => m[1]!).filter((name) => name !== "help");
}

describe("countersign --help", () => {
  it("prints usage on stdout and exits 0 for every command and group, walking the tree from the root", async () => {
    const seen: string[] = [];
    const visit = async (command: string[]): Promise<void> => {
      const result = await inProcess([...command, "--help"]);
      expect(result, command.join(" ")).toMatchObject({ code: 0, stderr: "" });
      expect(result.stdout).toMatch(new RegExp(`^Usage: countersign ${command.join(" ")}`.trimEnd()));
      seen.push(command.join(" "));
      for (const sub of subcommandsOf(result.stdout)) await visit([...command, sub]);
    };
    await visit([]);
    for (const command of [
      "serve",
      "migrate",
      "policy check",
      "policy replay",
      "policy schema",
      "explain",
      "audit verify",
      "audit checkpoint",
      "velocity void",
      "velocity prune",
      "addressbook sync",
      "review list",
      "review reject",
    ]) {
      expect(seen).toContain(command);
    }
  });

  it("answers `policy check --help` from bin/countersign.js, naming its options", async () => {
    const check = await runCli(["policy", "check", "--help"]);
    expect(check).toMatchObject({ code: 0, stderr: "" });
    expect(check.stdout).toContain("Usage: countersign policy check [options] [dir]");
    expect(check.stdout).toContain("--allow-no-tests");
    expect(check.stdout).toContain("--format <format>");
  });
});

describe("countersign --version", () => {
  it("prints the version of package.json", async () => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
    const result = await runCli(["--version"]);
    expect(result).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: "" });
  });
});

describe("a usage error", () => {
  it.each([
    [["bogus"], "unknown command 'bogus'"],
    [["policy", "check", "--bogus"], "unknown option '--bogus'"],
    [["velocity", "void"], "missing required argument 'name'"],
    [["velocity", "void", "vaults/v1/transactions/t1", "extra", "--reason", "x"], "too many arguments"],
    [["policy", "check", "--format", "xml"], "Allowed choices are text, json, junit"],
    [["policy"], "Usage: countersign policy"],
  ])("%j exits 2, names the problem on stderr and runs nothing", async (argv, problem) => {
    const result = await inProcess(argv);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(problem);
    expect(result.stdout).toBe("");
  });
});

describe("countersign policy check", () => {
  it("fails a bundle without test cases, unless --allow-no-tests", async () => {
    const dir = writeBundle(INTERNAL_ALLOWS);
    const refused = await runCli(["policy", "check", dir]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain("FAIL tests: (no test cases)");
    expect(refused.stdout).toContain("--allow-no-tests");
    expect(refused.stdout).toMatch(/^0 passed, 1 failed$/m);
    const allowed = await runCli(["policy", "check", dir, "--allow-no-tests"]);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toMatch(/^0 passed, 0 failed$/m);
  });

  it("prints JUnit XML a CI reads: one testsuite for the bundle, a testcase per case, the failure's message", async () => {
    const dir = writeBundle(INTERNAL_ALLOWS, { "cases.yaml": ONE_RIGHT_ONE_WRONG });
    const result = await runCli(["policy", "check", dir, "--format", "junit"]);
    expect(result.code).toBe(1);
    expect(XMLValidator.validate(result.stdout)).toBe(true);
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "", isArray: (name) => name === "testcase" }).parse(result.stdout) as {
      testsuites: {
        tests: string;
        failures: string;
        testsuite: { name: string; tests: string; failures: string; testcase: { classname: string; name: string; failure?: { message: string } }[] };
      };
    };
    const suite = xml.testsuites.testsuite;
    expect([xml.testsuites.tests, xml.testsuites.failures, suite.tests, suite.failures, suite.name]).toEqual(["2", "1", "2", "1", dir]);
    expect(suite.testcase.map((c) => [c.classname, c.name, c.failure?.message])).toEqual([
      ["tests/cases.yaml", "internal <allowed> & signed", undefined],
      ["tests/cases.yaml", "expects the wrong thing", expect.stringContaining("expected deny, got allow")],
    ]);
  });

  it("prints the same content as JSON", async () => {
    const dir = writeBundle(INTERNAL_ALLOWS, { "cases.yaml": ONE_RIGHT_ONE_WRONG });
    const result = await runCli(["policy", "check", dir, "--format", "json"]);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { policy: { version: string }; passed: number; failed: number; cases: { name: string; passed: boolean; failures: string[] }[] };
    expect(report).toMatchObject({ policy: { version: "t.1" }, passed: 1, failed: 1 });
    expect(report.cases.map((c) => [c.name, c.passed])).toEqual([
      ["internal <allowed> & signed", true],
      ["expects the wrong thing", false],
    ]);
    expect(report.cases[1]!.failures.join("\n")).toContain("expected deny, got allow");
  });

  it("counts a refused bundle as one failed testcase in JUnit, and passes the example bundle", async () => {
    const refused = await inProcess(["policy", "check", writeBundle("version: 1\nrules: nope\n"), "--format", "junit"]);
    expect(refused.code).toBe(1);
    expect(XMLValidator.validate(refused.stdout)).toBe(true);
    expect(refused.stdout).toMatch(/<testsuites name="countersign policy check" tests="1" failures="1"/);
    expect(refused.stdout).toContain('name="(the bundle is refused)"');
    const example = await inProcess(["policy", "check", EXAMPLE_POLICIES, "--format", "junit"]);
    expect(example.code).toBe(0);
    expect(example.stdout).toMatch(/failures="0"/);
    expect(example.stdout).not.toContain("<failure");
  });
});
