/**
 * Static validation of a rule's `when` at load time: only known operations, one operation per
 * object, literal `var` paths that cannot reach the prototype chain, sane argument counts, and
 * (when windows are given) `velocity.<window>.<field>` paths that exist.
 */
import { type PathSegment, formatPath } from "./json-path.js";
import { ARITY, FORBIDDEN_OPERATIONS, FORBIDDEN_SEGMENTS, KNOWN_OPERATIONS, SCOPED_OPERATIONS } from "./logic-ops.js";
import type { WindowSpec } from "./types.js";

export interface LogicProblem {
  /** Where, e.g. `rules[2].when.and[1]["<="][0].var`. */
  path: string;
  message: string;
}

export interface ValidateLogicOptions {
  /** Path of the expression itself, prefixed to every problem path (e.g. `rules[2].when`). */
  path?: string;
  /** Declared windows; when given, `velocity.*` paths are checked against them. */
  windows?: readonly Pick<WindowSpec, "name" | "measure">[];
}

const WINDOW_FIELDS: Record<string, "any" | "amount"> = { count: "any", countAfter: "any", amount: "amount", amountAfter: "amount" };

class Validator {
  readonly problems: LogicProblem[] = [];
  constructor(private readonly options: ValidateLogicOptions) {}

  report(at: readonly PathSegment[], message: string): void {
    this.problems.push({ path: formatPath(at, this.options.path ?? ""), message });
  }

  /** `scoped`: inside the per-element logic of map/filter/..., where `var` reads the element. */
  visit(node: unknown, at: PathSegment[], scoped: boolean): void {
    if (Array.isArray(node)) {
      node.forEach((item, i) => this.visit(item, [...at, i], scoped));
      return;
    }
    if (typeof node !== "object" || node === null) return;
    const keys = Object.keys(node);
    if (keys.length !== 1) {
      this.report(at, keys.length === 0
        ? "an empty object is not an operation"
        : `an operation object must have exactly one key, found ${keys.length}: ${keys.map((k) => JSON.stringify(k)).join(", ")}`);
      return;
    }
    const op = keys[0] as string;
    const forbidden = FORBIDDEN_OPERATIONS.get(op);
    if (forbidden !== undefined) return this.report([...at, op], forbidden);
    if (!KNOWN_OPERATIONS.has(op)) return this.report([...at, op], `unknown operation ${JSON.stringify(op)}`);
    this.visitOperation(op, (node as Record<string, unknown>)[op], [...at, op], scoped);
  }

  visitOperation(op: string, raw: unknown, at: PathSegment[], scoped: boolean): void {
    const isList = Array.isArray(raw);
    const args: unknown[] = isList ? raw : [raw];
    const argPath = (i: number): PathSegment[] => (isList ? [...at, i] : at);
    const arity = ARITY.get(op);
    if (arity && (args.length < arity[0] || args.length > arity[1])) {
      this.report(at, `${JSON.stringify(op)} takes ${describeArity(arity)} arguments, found ${args.length}`);
    }
    args.forEach((arg, i) => {
      if (op === "var" && i === 0) this.checkVarPath(arg, argPath(0), scoped);
      else if (op === "missing" || (op === "missing_some" && i === 1)) this.checkMissingKeys(arg, argPath(i), scoped);
      else this.visit(arg, argPath(i), scoped || (SCOPED_OPERATIONS.has(op) && i === 1));
    });
  }

  checkVarPath(path: unknown, at: PathSegment[], scoped: boolean): void {
    if (path === null || path === undefined || path === "") return;
    if (typeof path === "number") {
      if (!Number.isSafeInteger(path) || path < 0) this.report(at, `"var" index must be a non-negative integer, found ${path}`);
      return;
    }
    if (typeof path !== "string") {
      this.report(at, '"var" path must be a literal string or number (computed paths are not allowed)');
      return;
    }
    const segments = path.split(".");
    const bad = segments.find((s) => FORBIDDEN_SEGMENTS.has(s));
    if (bad !== undefined) return this.report(at, `"var" path ${JSON.stringify(path)} goes through ${JSON.stringify(bad)}, which is not allowed`);
    if (!scoped && segments[0] === "velocity") this.checkVelocityPath(segments, path, at);
  }

  /** `missing` / `missing_some` keys are var paths too; literal ones are checked, others validated as logic. */
  checkMissingKeys(arg: unknown, at: PathSegment[], scoped: boolean): void {
    if (typeof arg === "string" || typeof arg === "number") return this.checkVarPath(arg, at, scoped);
    if (Array.isArray(arg) && arg.every((k) => typeof k === "string" || typeof k === "number")) {
      arg.forEach((key, i) => this.checkVarPath(key, [...at, i], scoped));
      return;
    }
    this.visit(arg, at, scoped);
  }

  checkVelocityPath(segments: string[], path: string, at: PathSegment[]): void {
    const windows = this.options.windows;
    if (windows === undefined || segments.length < 2) return;
    const window = windows.find((w) => w.name === segments[1]);
    if (!window) return this.report(at, `"var" path ${JSON.stringify(path)} names no declared window`);
    const field = segments[2];
    if (field === undefined) return;
    const kind = WINDOW_FIELDS[field];
    if (kind === undefined || !Object.hasOwn(WINDOW_FIELDS, field) || segments.length > 3) {
      return this.report(at, `"var" path ${JSON.stringify(path)}: a window has count, countAfter, amount and amountAfter`);
    }
    if (kind === "amount" && window.measure !== "amount") {
      this.report(at, `"var" path ${JSON.stringify(path)}: window ${JSON.stringify(window.name)} measures count, it has no ${field}`);
    }
  }
}

function describeArity([min, max]: readonly [number, number]): string {
  if (min === max) return String(min);
  return max === Infinity ? `at least ${min}` : `${min} to ${max}`;
}

/** Every problem in a JSON-logic expression; empty when it is safe to evaluate. */
export function validateLogic(expr: unknown, options: ValidateLogicOptions = {}): LogicProblem[] {
  const validator = new Validator(options);
  validator.visit(expr, [], false);
  return validator.problems;
}
