/**
 * The JSON-logic operations a policy may use: json-logic-js's standard set without `method`
 * (calls arbitrary JS methods) and `log` (writes to the console).
 */
export const KNOWN_OPERATIONS: ReadonlySet<string> = new Set([
  "var",
  "missing",
  "missing_some",
  "if",
  "?:",
  "and",
  "or",
  "!",
  "!!",
  "==",
  "!=",
  "===",
  "!==",
  "<",
  "<=",
  ">",
  ">=",
  "+",
  "-",
  "*",
  "/",
  "%",
  "min",
  "max",
  "in",
  "cat",
  "substr",
  "merge",
  "map",
  "filter",
  "reduce",
  "all",
  "none",
  "some",
]);

/** Operations that compute a number: each gives its exact decimal as text (decimal-ops.ts). */
export const ARITHMETIC_OPERATIONS: ReadonlySet<string> = new Set(["+", "-", "*", "/", "%", "min", "max"]);

/** Operations whose second argument is evaluated against each element, not the facts document. */
export const SCOPED_OPERATIONS: ReadonlySet<string> = new Set(["map", "filter", "reduce", "all", "none", "some"]);

/** Operations explicitly refused, with the reason given to the policy author. */
export const FORBIDDEN_OPERATIONS: ReadonlyMap<string, string> = new Map([
  ["method", 'the "method" operation is not allowed (it calls arbitrary JavaScript methods)'],
  ["log", 'the "log" operation is not allowed (it writes to the console)'],
]);

/** Allowed argument counts, where an operation has a fixed shape: [min, max]. */
export const ARITY: ReadonlyMap<string, readonly [number, number]> = new Map([
  ["==", [2, 2]],
  ["!=", [2, 2]],
  ["===", [2, 2]],
  ["!==", [2, 2]],
  [">", [2, 2]],
  [">=", [2, 2]],
  ["<", [2, 3]],
  ["<=", [2, 3]],
  ["-", [1, 2]],
  ["*", [1, Infinity]],
  ["/", [2, 2]],
  ["%", [2, 2]],
  ["min", [1, Infinity]],
  ["max", [1, Infinity]],
  ["!", [1, 1]],
  ["!!", [1, 1]],
  ["in", [2, 2]],
  ["substr", [2, 3]],
  ["var", [0, 2]],
  ["missing_some", [2, 2]],
  ["map", [2, 2]],
  ["filter", [2, 2]],
  ["reduce", [2, 3]],
  ["all", [2, 2]],
  ["none", [2, 2]],
  ["some", [2, 2]],
]);

/** Path segments that would reach the prototype chain. */
export const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);
