import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { custodyOpenApi, fieldPaths } from "../../../test/support/custody-openapi.js";
import { FIELD_CLASSES, fieldClassesMarkdown, fieldEntry } from "./field-classes.js";

/** The entry that classifies a path: its own, or its nearest classified ancestor's. */
function classifiedBy(path: string): string | undefined {
  const segments = path.split(".");
  for (let n = segments.length; n > 0; n--) {
    const prefix = segments.slice(0, n).join(".");
    for (const candidate of [prefix, prefix.replace(/\[\]$/, "")]) {
      if (fieldEntry(candidate) !== undefined) return candidate;
    }
  }
  return undefined;
}

describe("the field classification table against the platform's OpenAPI v2Transaction", () => {
  const { schemas } = custodyOpenApi();
  const paths = fieldPaths(schemas, "v2Transaction");

  it("reads a schema with the fields the table was written from", () => {
    expect(paths).toContain("evmTransaction.authorizationDetails.authorizationList[].contractAddress.value");
    expect(paths).toContain("stellarTransaction.operations[].decodedBody.sep41TokenApproval.rawAmount");
    expect(paths.length).toBeGreaterThan(300);
  });

  it("classifies every field of the schema (a new field fails here until someone classifies it)", () => {
    // A field under a container that only other fields were classified in: neither it nor an ancestor has an entry.
    const leaves = paths.filter((p) => !paths.some((other) => other.startsWith(`${p}.`) || other.startsWith(`${p}[].`)));
    const unclassified = leaves.filter((p) => classifiedBy(p) === undefined);
    expect(unclassified).toEqual([]);
  });

  it("names only fields that exist (in the schema, or in the reference's details.* marked as such)", () => {
    const known = new Set(paths.flatMap((p) => [p, p.replace(/\[\]$/, "")]));
    const stale = FIELD_CLASSES.filter((e) => !e.reference && !known.has(e.path)).map((e) => e.path);
    expect(stale).toEqual([]);
  });

  it("names every payload class entry, and no path twice", () => {
    expect(FIELD_CLASSES.filter((e) => e.class === "payload" && !e.payload)).toEqual([]);
    expect(new Set(FIELD_CLASSES.map((e) => e.path)).size).toBe(FIELD_CLASSES.length);
  });
});

describe("docs/chains.md lists the table", () => {
  it("holds the generated list verbatim", () => {
    const readme = readFileSync(new URL("../../../docs/chains.md", import.meta.url), "utf8");
    expect(readme).toContain(fieldClassesMarkdown());
  });
});
