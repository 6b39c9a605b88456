import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { SCHEMA_FILES, SCHEMA_KINDS, bundleJsonSchemaText } from "../../../src/policy/json-schema.js";
import { runCli } from "../../support/cli.js";
import { EXAMPLE_POLICIES } from "../../support/service.js";

const SCHEMA_DIR = path.resolve(import.meta.dirname, "../../../schema");

async function schemaFromCli(kind: "policy" | "tests"): Promise<object> {
  const result = await runCli(["policy", "schema", kind]);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as object;
}

function validator(schema: object) {
  // Formats (date-time) are checked by the loader; the schema's job here is keys and shapes.
  return new Ajv2020({ strict: true, allErrors: true, validateFormats: false }).compile(schema);
}

function yamlFile(...parts: string[]): unknown {
  return parseYaml(readFileSync(path.join(...parts), "utf8"));
}

describe("countersign policy schema", () => {
  const printed: Record<string, object> = {};
  beforeAll(async () => {
    printed.policy = await schemaFromCli("policy");
    printed.tests = await schemaFromCli("tests");
  }, 60_000);
  it("validates the example bundle's policy file and test files", () => {
    const policy = validator(printed.policy!);
    expect(policy(yamlFile(EXAMPLE_POLICIES, "policy.yaml")), JSON.stringify(policy.errors)).toBe(true);
    const tests = validator(printed.tests!);
    const testFiles = readdirSync(path.join(EXAMPLE_POLICIES, "tests")).filter((f) => f.endsWith(".yaml"));
    expect(testFiles.length).toBeGreaterThan(0);
    for (const f of testFiles) expect(tests(yamlFile(EXAMPLE_POLICIES, "tests", f)), `${f}: ${JSON.stringify(tests.errors)}`).toBe(true);
  });

  it("rejects a misspelled key in a rule and in a test case", () => {
    const policy = validator(printed.policy!);
    const doc = yamlFile(EXAMPLE_POLICIES, "policy.yaml") as { rules: Record<string, unknown>[] };
    const { decision, ...rest } = doc.rules[0]!;
    doc.rules[0] = { ...rest, decison: decision };
    expect(policy(doc)).toBe(false);
    expect(policy.errors).toContainEqual(expect.objectContaining({ instancePath: "/rules/0", keyword: "additionalProperties", params: { additionalProperty: "decison" } }));

    const tests = validator(printed.tests!);
    const cases = yamlFile(EXAMPLE_POLICIES, "tests", "treasury.yaml") as { cases: Record<string, unknown>[] };
    cases.cases[0] = { ...cases.cases[0], expectRule: ["x"] };
    expect(tests(cases)).toBe(false);
    expect(tests.errors?.[0]).toMatchObject({ keyword: "additionalProperties", params: { additionalProperty: "expectRule" } });
  });

  it("rejects a wrong decision, a bad window and a missing version", () => {
    const policy = validator(printed.policy!);
    const base = { version: "1", default: "deny", rules: [{ id: "r", decision: "allow", when: true }] };
    expect(policy(base)).toBe(true);
    expect(policy({ ...base, default: "allow" })).toBe(false);
    expect(policy({ ...base, rules: [{ id: "r", decision: "permit", when: true }] })).toBe(false);
    expect(policy({ ...base, windows: [{ name: "w", duration: "1h", groupBy: ["wallet"] }] })).toBe(false);
    const { version: _version, ...unversioned } = base;
    expect(policy(unversioned)).toBe(false);
  });

  it("the copies committed under schema/ are what the command generates (run `npx countersign policy schema --write schema`)", () => {
    for (const kind of SCHEMA_KINDS) {
      expect(readFileSync(path.join(SCHEMA_DIR, SCHEMA_FILES[kind]), "utf8")).toBe(bundleJsonSchemaText(kind));
    }
  });
});
