/**
 * Where a rule reads an arithmetic result. `+ - * / % min max` give their exact decimal as text
 * (decimal-ops.ts), where JsonLogic gives a number: a number in binary floating point would move
 * an 18-decimal amount, so the text stays, and compares as the number with `==`, `<` and the rest.
 * It differs from the number in two places, which loading refuses (validate-logic.ts):
 * - read as true or false (a rule's `when`, the condition of `if`/`?:`, an operand of `and`/`or`
 *   but the last, `!`, `!!`, the predicate of `some`/`all`/`none`/`filter`): text is true unless
 *   empty, so "0" is true where 0 is false, and an allow rule built on `{"-": [amount, "100"]}`
 *   allowed everything;
 * - in `===`, `!==` and `in`, which compare types and spelling: `{"===": [{"+": [{"var":
 *   "transfer.index"}, 1]}, 1]}` was never true, and a deny rule written so never denied.
 */
import type { PathSegment } from "./json-path.js";
import { ARITHMETIC_OPERATIONS } from "./logic-ops.js";

/** An arithmetic operation and its path inside the expression that passes its result on. */
export interface ArithmeticAt {
  op: string;
  at: PathSegment[];
}

/** Operations that compare types and spelling, never reading numeric text as a number. */
export const STRICT_COMPARISONS: ReadonlySet<string> = new Set(["===", "!==", "in"]);

/**
 * The arguments whose value an operation passes on as its own: the last operand of `and`/`or`
 * (the others are read as conditions, and checked as such), the results of `if`/`?:`, and what
 * `reduce` accumulates (its reducer's value, or its start for an empty list).
 */
function passedOn(op: string, count: number): number[] {
  const all = [...Array(count).keys()];
  if (op === "and" || op === "or") return all.slice(-1);
  if (op === "if" || op === "?:") return all.filter((i) => i % 2 === 1 || (i === count - 1 && count % 2 === 1));
  return op === "reduce" ? [1, 2] : [];
}

/** The arithmetic operation whose result `expr` can be, itself or through what passes it on; else null. */
export function arithmeticResult(expr: unknown): ArithmeticAt | null {
  if (typeof expr !== "object" || expr === null || Array.isArray(expr)) return null;
  const entries: [string, unknown][] = Object.entries(expr);
  if (entries.length !== 1) return null;
  const [op, raw] = entries[0]!;
  if (ARITHMETIC_OPERATIONS.has(op)) return { op, at: [op] };
  const args: unknown[] = Array.isArray(raw) ? raw : [raw];
  for (const i of passedOn(op, args.length)) {
    const found = arithmeticResult(args[i]);
    if (found !== null) return { op: found.op, at: [op, ...(Array.isArray(raw) ? [i] : []), ...found.at] };
  }
  return null;
}

/** Whether argument `i` of `count` of `op` is read for its truth (json-logic-js's `truthy`). */
export function readsTruth(op: string, i: number, count: number): boolean {
  if (op === "!" || op === "!!") return i === 0;
  if (op === "and" || op === "or") return i < count - 1;
  if (op === "if" || op === "?:") return i % 2 === 0 && i < count - 1;
  return (op === "some" || op === "all" || op === "none" || op === "filter") && i === 1;
}

/** Why a condition may not read `found`, for the policy author. */
export function conditionMessage(found: ArithmeticAt): string {
  return `the result of ${JSON.stringify(found.op)} is read here as true or false, but arithmetic gives its exact decimal as text, which is true even when it is "0": compare it instead ({"!=": [{"${found.op}": …}, 0]})`;
}

/** Why `op` (`===`, `!==`, `in`) may not compare `found`, for the policy author. */
export function strictComparisonMessage(op: string, found: ArithmeticAt): string {
  const instead = op === "in" ? 'compare it with "==" to each number' : `use ${JSON.stringify(op === "===" ? "==" : "!=")}, which compares decimals exactly`;
  return `${JSON.stringify(op)} compares types and spelling, and the result of ${JSON.stringify(found.op)} is its exact decimal as text, never a number, so it never equals one: ${instead}`;
}
