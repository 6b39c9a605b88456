/**
 * Operand values for `explain`: while a rule is evaluated with tracing on, every comparison
 * (`==`, `!=`, `<`, `<=`, `>`, `>=`) records the values its operands had and, from the expression
 * node being evaluated, where they came from — `velocity.daily_out.amountAfter = 120500 > 100000`.
 * It records from inside the one evaluation (the decimal operations themselves), never from a
 * second interpreter, so the trace cannot disagree with the decision. Evaluation is synchronous,
 * so one recorder at a time is all there is.
 */
import { describeValue } from "./logic-error.js";

export interface Operand {
  /** Where the value came from: a `var` path, or the expression as compact JSON; absent for a literal. */
  from?: string;
  /** The value (strings over 200 characters cut; objects and arrays described, not copied). */
  value: unknown;
}

export interface Comparison {
  op: string;
  operands: Operand[];
  /** The comparison's result; absent when it failed. */
  result?: boolean;
  error?: string;
  /** `velocity.daily_out.amountAfter = 120500 > 100000` */
  text: string;
}

export const TRACED_OPERATIONS: ReadonlySet<string> = new Set(["==", "!=", "<", "<=", ">", ">="]);

let recorder: Comparison[] | null = null;
/** The expression nodes being evaluated, innermost last (kept only while recording). */
const nodes: unknown[] = [];

export function isRecording(): boolean {
  return recorder !== null;
}

/** Runs `evaluate` with a fresh recorder and returns what it recorded (also when it throws). */
export function recordComparisons<T>(evaluate: () => T): { value?: T; error?: unknown; comparisons: Comparison[] } {
  const comparisons: Comparison[] = [];
  const outer = recorder;
  recorder = comparisons;
  try {
    return { value: evaluate(), comparisons };
  } catch (error) {
    return { error, comparisons };
  } finally {
    recorder = outer;
    nodes.length = 0;
  }
}

/** Called around every expression node while recording, so an operation knows its own node. */
export function withNode<T>(node: unknown, evaluate: () => T): T {
  nodes.push(node);
  try {
    return evaluate();
  } finally {
    nodes.pop();
  }
}

/** Wraps a comparison operation so that, while recording, each call is recorded. */
export function traced(op: string, operation: (...args: unknown[]) => unknown): (...args: unknown[]) => unknown {
  return function (this: unknown, ...args: unknown[]) {
    if (recorder === null) return operation.apply(this, args);
    const list = recorder;
    const sources = operandSources(op, nodes[nodes.length - 1], args.length);
    const operands = args.map((value, i) => ({ ...(sources[i] !== undefined ? { from: sources[i] } : {}), value: shown(value) }));
    try {
      const result = operation.apply(this, args);
      list.push({ op, operands, result: Boolean(result), text: comparisonText(op, operands) });
      return result;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      list.push({ op, operands, error: message, text: comparisonText(op, operands) });
      throw error;
    }
  };
}

function operandSources(op: string, node: unknown, count: number): (string | undefined)[] {
  const raw = typeof node === "object" && node !== null && !Array.isArray(node) ? (node as Record<string, unknown>)[op] : undefined;
  const exprs = Array.isArray(raw) ? raw : [raw];
  return Array.from({ length: count }, (_, i) => sourceOf(exprs[i]));
}

function sourceOf(expr: unknown): string | undefined {
  if (typeof expr !== "object" || expr === null) return undefined; // a literal shows as its value
  const record = expr as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys.length === 1 && keys[0] === "var") {
    const path: unknown = Array.isArray(record.var) ? record.var[0] : record.var;
    if (path === "" || path === null || path === undefined) return undefined; // the element itself (inside some/all)
    if (typeof path === "string" || typeof path === "number") return String(path);
  }
  const json = JSON.stringify(expr);
  return json.length > 120 ? `${json.slice(0, 120)}…` : json;
}

function shown(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === "string") return value.length > 200 ? `${value.slice(0, 200)}…` : value;
  if (value === null || typeof value === "number" || typeof value === "boolean") return value;
  return describeValue(value);
}

const NUMERIC = /^-?[0-9]+(\.[0-9]+)?$/;

function valueText(value: unknown): string {
  if (typeof value === "string") return NUMERIC.test(value) ? value : JSON.stringify(value);
  return String(value);
}

function comparisonText(op: string, operands: readonly Operand[]): string {
  return operands.map((o) => (o.from !== undefined ? `${o.from} = ${valueText(o.value)}` : valueText(o.value))).join(` ${op} `);
}
