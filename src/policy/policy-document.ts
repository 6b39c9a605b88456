/**
 * Parsing the policy file (YAML or JSON) into plain data, refusing what a reviewer could misread:
 * duplicate keys (the last would silently win), `__proto__` keys, non-string keys, and numbers
 * that are not plain decimals or that a JS number cannot hold exactly (`1000.000000000000000001`
 * would become 1000). JSON goes through the same YAML syntax tree for those checks, because
 * JSON.parse accepts duplicate keys.
 */
import { type Document, type Node, isAlias, isMap, isScalar, isSeq, parseDocument } from "yaml";
import { isNumericLike, toDecimal } from "../core/policy/decimal.js";
import { withCompactStrings } from "./compact-strings.js";
import type { PathSegment } from "../core/policy/json-path.js";

export interface DocumentProblem {
  path?: PathSegment[];
  message: string;
}

/** `value` is present whenever the syntax was readable, so problems can be attributed to rules. */
export interface ParsedDocument {
  value?: unknown;
  problems: DocumentProblem[];
}

const PLAIN_DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/;

function decodeUtf8(bytes: Buffer): string | null {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function checkNumber(node: { source?: string; value: number }, at: PathSegment[], problems: DocumentProblem[]): void {
  const written = (node.source ?? String(node.value)).trim();
  if (!PLAIN_DECIMAL.test(written)) {
    problems.push({ path: at, message: `number ${written} must be written as a plain decimal (or quoted as a string)` });
  } else if (!isNumericLike(node.value) || !toDecimal(written).eq(toDecimal(node.value))) {
    problems.push({ path: at, message: `number ${written} cannot be held exactly; quote it as a string ("${written}")` });
  }
}

function walk(node: Node | null | undefined, at: PathSegment[], problems: DocumentProblem[]): void {
  if (!node || isAlias(node)) return; // an alias's target is checked where it is defined
  if (isScalar(node)) {
    if (typeof node.value === "number") checkNumber(node as { source?: string; value: number }, at, problems);
    return;
  }
  if (isSeq(node)) {
    node.items.forEach((item, i) => walk(item as Node, [...at, i], problems));
    return;
  }
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? pair.key.value : undefined;
      if (typeof key !== "string") {
        problems.push({ path: at, message: "mapping keys must be plain strings" });
        continue;
      }
      if (key === "__proto__") {
        problems.push({ path: [...at, key], message: '"__proto__" is not allowed as a key' });
        continue;
      }
      walk(pair.value as Node, [...at, key], problems);
    }
  }
}

function syntaxProblems(doc: Document): DocumentProblem[] {
  return [...doc.errors, ...doc.warnings].map((e) => ({ message: e.message.split("\n")[0] ?? e.message }));
}

function toValue(doc: Document, text: string, isJson: boolean): unknown {
  // JSON's own number and string semantics
  return withCompactStrings(isJson ? JSON.parse(text) : doc.toJS());
}

export function parsePolicyDocument(fileName: string, bytes: Buffer): ParsedDocument {
  const text = decodeUtf8(bytes);
  if (text === null) return { problems: [{ message: "not valid UTF-8 text" }] };
  const isJson = fileName.endsWith(".json");
  if (isJson) {
    try {
      JSON.parse(text);
    } catch (error) {
      return { problems: [{ message: `invalid JSON: ${(error as Error).message}` }] };
    }
  }
  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  const problems = syntaxProblems(doc);
  if (problems.length > 0) return { problems };
  walk(doc.contents, [], problems);
  try {
    return { value: toValue(doc, text, isJson), problems };
  } catch (error) {
    return { problems: [...problems, { message: (error as Error).message }] }; // e.g. excessive aliases
  }
}
