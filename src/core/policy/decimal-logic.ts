/**
 * The one entry point for evaluating policy JSON-logic. json-logic-js keeps its operations in a
 * process-wide table; importing this module replaces the comparison and arithmetic operations
 * with exact-decimal ones, `in` with one that reads a list written as one string (membership.ts),
 * `var` with a prototype-safe one, and `method`/`log` with refusals — once, at import. Every
 * evaluation goes through `applyLogic`, which also refuses any expression that the bundle loader
 * would refuse, so an unvalidated expression cannot slip through, reads a list written as one
 * string as its items (string-lists.ts), so no path evaluates it as text, and reads each literal in
 * the canonical spelling the facts use (canonical-literals.ts), so equality stays plain.
 */
import jsonLogic from "json-logic-js";
import { DECIMAL_OPERATIONS } from "./decimal-ops.js";
import { LogicError } from "./logic-error.js";
import { FORBIDDEN_OPERATIONS } from "./logic-ops.js";
import { safeVar } from "./safe-var.js";
import { withCanonicalLiterals } from "./canonical-literals.js";
import { MEMBERSHIP_OPERATIONS } from "./membership.js";
import { withStringLists } from "./string-lists.js";
import { TRACED_OPERATIONS, isRecording, recordComparisons, traced, withNode, type Comparison } from "./trace.js";
import { validateLogic } from "./validate-logic.js";

function installOperations(): void {
  for (const [name, operation] of Object.entries(DECIMAL_OPERATIONS)) {
    jsonLogic.add_operation(name, TRACED_OPERATIONS.has(name) ? traced(name, operation) : operation);
  }
  for (const [name, operation] of Object.entries(MEMBERSHIP_OPERATIONS)) jsonLogic.add_operation(name, operation);
  jsonLogic.add_operation("var", safeVar);
  for (const [name, why] of FORBIDDEN_OPERATIONS) {
    jsonLogic.add_operation(name, () => {
      throw new LogicError(why);
    });
  }
}

/**
 * json-logic-js recurses through `jsonLogic.apply`; while a trace is recorded, this keeps the node
 * being evaluated, so a comparison can name where its operands came from (src/core/policy/trace.ts).
 */
function installNodeTracking(): void {
  const plainApply = jsonLogic.apply.bind(jsonLogic);
  jsonLogic.apply = (logic, data): unknown => (isRecording() ? withNode(logic, (): unknown => plainApply(logic, data)) : plainApply(logic, data));
}

installOperations();
installNodeTracking();

/**
 * Expressions already validated and deeply frozen (as loaded bundles are), each with the form that
 * is evaluated (string-lists.ts), one table for values and one for conditions (a rule's `when`,
 * which is refused more: validate-logic.ts): they cannot have changed since, so they need no second
 * validation and no second rewriting. Validation costs more than evaluation.
 */
const prepared = { value: new WeakMap<object, unknown>(), condition: new WeakMap<object, unknown>() };

/** What an expression is read for: its value, or (a rule's `when`) whether it is true. */
export type ReadAs = keyof typeof prepared;

function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

/** The expression as evaluated: validated, its literals canonical, every list written as one string read as its items. */
function prepare(expr: unknown, readAs: ReadAs): unknown {
  const cache = prepared[readAs];
  const cacheable = typeof expr === "object" && expr !== null;
  if (cacheable && cache.has(expr)) return cache.get(expr);
  const problem = validateLogic(expr, { condition: readAs === "condition" })[0];
  if (problem) throw new LogicError(`invalid expression at ${problem.path}: ${problem.message}`);
  const evaluated = withStringLists(withCanonicalLiterals(expr));
  if (cacheable && isDeepFrozen(expr)) cache.set(expr, evaluated);
  return evaluated;
}

/** Evaluates a policy expression against a facts document. Throws LogicError when it cannot. */
export function applyLogic(expr: unknown, data: unknown, readAs: ReadAs = "value"): unknown {
  return jsonLogic.apply(prepare(expr, readAs) as Parameters<typeof jsonLogic.apply>[0], data);
}

/** The same evaluation, with every comparison's operand values recorded (for traces). */
export function applyLogicTraced(expr: unknown, data: unknown, readAs: ReadAs = "value"): { value?: unknown; error?: unknown; comparisons: Comparison[] } {
  return recordComparisons(() => applyLogic(expr, data, readAs));
}

/** JSON-logic truthiness: like JavaScript's, except that an empty array is false. */
export function truthy(value: unknown): boolean {
  return jsonLogic.truthy(value);
}

export { LogicError };
