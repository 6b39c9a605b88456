/**
 * A `var` that only reads JSON data: own data properties of plain objects and in-range indexes of
 * arrays. json-logic-js's own `var` walks the prototype chain (`{"var": "tx.constructor"}` reaches
 * Object), and reads getters; this one never does.
 */
import { FORBIDDEN_SEGMENTS } from "./logic-ops.js";
import { LogicError, describeValue } from "./logic-error.js";

const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** The child named by one path segment, or undefined when the data has no such own entry. */
function ownChild(node: unknown, segment: string): unknown {
  if (Array.isArray(node)) {
    if (!ARRAY_INDEX.test(segment)) return undefined;
    const index = Number(segment);
    return index < node.length ? (node[index] as unknown) : undefined;
  }
  if (!isPlainObject(node)) return undefined;
  const descriptor = Object.getOwnPropertyDescriptor(node, segment);
  return descriptor && "value" in descriptor ? (descriptor.value as unknown) : undefined;
}

/**
 * Same contract as json-logic-js's `var`: an empty path is the data itself; a path not found gives
 * the fallback (or null); a value found, even null, is returned as is.
 */
export function safeVar(this: unknown, path?: unknown, fallback?: unknown): unknown {
  const notFound = fallback === undefined ? null : fallback;
  if (path === undefined || path === null || path === "") return this;
  if (typeof path !== "string" && typeof path !== "number") {
    throw new LogicError(`"var" needs a string or number path, got ${describeValue(path)}`);
  }
  let node: unknown = this;
  for (const segment of String(path).split(".")) {
    if (FORBIDDEN_SEGMENTS.has(segment)) throw new LogicError(`"var" path ${JSON.stringify(String(path))} is not allowed`);
    node = ownChild(node, segment);
    if (node === undefined) return notFound;
  }
  return node;
}
