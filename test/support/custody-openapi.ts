/**
 * The platform's published OpenAPI document (CONTRACT.md: `reference/custody-api-v2.openapi.json`),
 * vendored with its source and checksum in test/fixtures/custody-api-v2/: the tests read the
 * repository's copy only, so they pass on a clone with nothing beside it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";

const FILE = path.resolve(import.meta.dirname, "../fixtures/custody-api-v2/custody-api-v2.openapi.json");

interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  $ref?: string;
  allOf?: Schema[];
  enum?: unknown[];
}

/** The whole document, parsed. */
export function custodyOpenApiDocument(): Record<string, unknown> {
  return JSON.parse(readFileSync(FILE, "utf8")) as Record<string, unknown>;
}

export function custodyOpenApi(): { schemas: Record<string, Schema> } {
  const doc = custodyOpenApiDocument() as { components: { schemas: Record<string, Schema> } };
  return { schemas: doc.components.schemas };
}

/**
 * Every field path of a schema, dotted, `[]` for array items (`transfers[].sourceAddress.value`),
 * objects and leaves alike. A schema met again below itself is not expanded twice.
 */
export function fieldPaths(schemas: Record<string, Schema>, root: string): string[] {
  const out: string[] = [];
  const refName = (s: Schema): string | undefined => {
    const ref = s.$ref ?? (s.allOf?.length === 1 ? s.allOf[0]?.$ref : undefined);
    return ref?.split("/").pop();
  };
  const walk = (schema: Schema, prefix: string, seen: ReadonlySet<string>): void => {
    for (const [key, child] of Object.entries(schema.properties ?? {})) {
      const fieldPath = prefix === "" ? key : `${prefix}.${key}`;
      out.push(fieldPath);
      const target = child.type === "array" && child.items ? child.items : child;
      const itemPath = child.type === "array" ? `${fieldPath}[]` : fieldPath;
      const name = refName(target);
      if (name !== undefined && !seen.has(name) && schemas[name]) walk(schemas[name], itemPath, new Set([...seen, name]));
      else if (target.properties) walk(target, itemPath, seen);
    }
  };
  const rootSchema = schemas[root];
  if (!rootSchema) throw new Error(`schema ${root} not found`);
  walk(rootSchema, "", new Set([root]));
  return out;
}
