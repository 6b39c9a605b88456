/**
 * JSON Schemas of the bundle's files, generated from the zod schemas that validate them at load
 * (`countersign policy schema`), so an editor can check a policy as it is typed. The loader stays
 * the authority: it also checks what a JSON Schema cannot say (known JSON-logic operations, safe
 * `var` paths, window names a rule reads, exact numbers).
 */
import { z } from "zod";
import { policySchema } from "./bundle-schema.js";
import { testFileSchema } from "./check.js";

export const SCHEMA_KINDS = ["policy", "tests"] as const;
export type SchemaKind = (typeof SCHEMA_KINDS)[number];

/** Where the committed copies live (schema/ in the repository). */
export const SCHEMA_FILES: Record<SchemaKind, string> = {
  policy: "policy.schema.json",
  tests: "policy-tests.schema.json",
};

const TITLES: Record<SchemaKind, string> = {
  policy: "countersign policy file (policy.yaml)",
  tests: "countersign policy test file (tests/*.yaml)",
};

export function bundleJsonSchema(kind: SchemaKind): Record<string, unknown> {
  const source = kind === "policy" ? policySchema : testFileSchema;
  // "input": the document as written (defaults optional); "any": refinements are checked by the loader.
  const generated = z.toJSONSchema(source, { io: "input", unrepresentable: "any" });
  const { $schema, ...rest } = generated;
  return { $schema, title: TITLES[kind], ...rest };
}

/** The text committed under schema/ and printed by the command: stable, ends with a newline. */
export function bundleJsonSchemaText(kind: SchemaKind): string {
  return JSON.stringify(bundleJsonSchema(kind), null, 2) + "\n";
}
