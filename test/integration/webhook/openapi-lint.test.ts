/**
 * The OpenAPI document passes `redocly lint` with its recommended rules, and each schema in it
 * compiles under ajv's strict mode: clients are generated from it by tools nobody here wrote, and
 * a document they refuse is no interface at all. The warnings left are named: each is a rule
 * that does not fit (an operation that answers no 4xx, a service under no public license), and a
 * new warning fails here until it is fixed or named.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "../../../src/http/openapi.js";
import { scratchDir } from "../../support/scratch.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const REDOCLY = path.join(ROOT, "node_modules/@redocly/cli/bin/cli.js");

type Problem = { ruleId: string; severity: "error" | "warn"; message: string; location: { pointer: string }[] };
type Doc = { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { $ref: string } }> } }>>; components: { schemas: Record<string, object> } };

/** Operations that answer no 4xx: nothing a caller sends can be refused there. */
const NO_4XX = ["/v1/policy", "/healthz", "/readyz", "/openapi.json", "/metrics"].map((p) => `#/paths/${p.replaceAll("/", "~1")}/get/responses`);

async function lint(doc: object): Promise<Problem[]> {
  const file = path.join(scratchDir("openapi-lint"), "openapi.json");
  writeFileSync(file, JSON.stringify(doc, null, 1));
  // Telemetry and the update check stay off: the run reads nothing from the network.
  const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", CI: "true" };
  const run = await promisify(execFile)(process.execPath, [REDOCLY, "lint", file, "--format=json"], { env, cwd: path.dirname(file) }).catch((e: { stdout: string }) => e);
  return (JSON.parse(run.stdout) as { problems: Problem[] }).problems;
}

describe("the OpenAPI document under the tools clients use", () => {
  const doc = openApiDocument() as Doc;

  it("redocly lint (recommended rules): no error, and only the warnings named here", async () => {
    const problems = await lint(doc);
    expect(problems.filter((p) => p.severity === "error").map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
    const warnings = problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}`);
    const named = ["info-license #/info", ...NO_4XX.map((pointer) => `operation-4xx-response ${pointer}`)];
    expect(warnings.filter((w) => !named.includes(w))).toEqual([]);
  }, 60_000);

  it("every schema compiles under ajv's strict mode; a nullable union admits null", () => {
    const ajv = new Ajv({ strict: true, validateFormats: false });
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      expect(() => ajv.compile(schema), name).not.toThrow();
    }
    const shadow = (doc.components.schemas.PolicyStatus as { properties: { shadow: object } }).properties.shadow;
    expect(ajv.validate(shadow, null)).toBe(true);
    expect(ajv.validate(shadow, { loaded: "yes" })).toBe(false);
  });

  it("a rejection's comment is required, an approval's is not", () => {
    const bodyOf = (verb: string) => {
      const ref = doc.paths[`/v1/vaults/{vault}/transactions/{transaction}/review:${verb}`]!.post!.requestBody!.content["application/json"]!.schema.$ref;
      return doc.components.schemas[ref.split("/").pop()!] as { required?: string[] };
    };
    expect(bodyOf("reject").required).toEqual(["comment"]);
    expect(bodyOf("approve").required ?? []).toEqual([]);
  });
});
