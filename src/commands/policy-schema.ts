/** `countersign policy schema [policy|tests] [--write DIR]`: the JSON Schemas of the bundle's files. */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { SCHEMA_FILES, SCHEMA_KINDS, bundleJsonSchemaText, type SchemaKind } from "../policy/json-schema.js";

export async function policySchema(kind: SchemaKind, writeDir: string | undefined, out: (line: string) => void): Promise<number> {
  if (writeDir !== undefined) {
    for (const k of SCHEMA_KINDS) {
      const file = path.join(writeDir, SCHEMA_FILES[k]);
      await writeFile(file, bundleJsonSchemaText(k));
      out(`wrote ${file}`);
    }
    return 0;
  }
  out(bundleJsonSchemaText(kind).trimEnd());
  return 0;
}
