/**
 * The comparison and arithmetic operations of policy JSON-logic, on exact decimals (docs/interface.md
 * section 2). json-logic-js's built-ins compare strings alphabetically (`"10" > "9"` is false),
 * turn null into 0 and compute in binary floating point (`0.3 / 0.1` is 2.9999999999999996);
 * money decisions can afford none of that. A null or missing operand, a zero divisor and a
 * quotient with no exact decimal are errors, never a silent 0, Infinity or rounding: evaluation
 * resolves them to the safe side. Every arithmetic result is its exact decimal as text, which
 * loading keeps out of strict comparisons and conditions (arithmetic-results.ts).
 */
import { type Dec, QUOTIENT_PLACES, decimalText, exactQuotient, isNumericLike, isZero, toDecimal } from "./decimal.js";
import { LogicError, describeValue } from "./logic-error.js";

function requirePresent(op: string, value: unknown): void {
  if (value === null || value === undefined) {
    throw new LogicError(`"${op}" got ${describeValue(value)} as an operand (a missing fact?)`);
  }
}

function operand(op: string, value: unknown): Dec {
  requirePresent(op, value);
  if (!isNumericLike(value)) throw new LogicError(`"${op}" needs a number, got ${describeValue(value)}`);
  return toDecimal(value);
}

function requireArity(op: string, args: unknown[], min: number, max: number): void {
  if (args.length < min || args.length > max) {
    const wanted = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
    throw new LogicError(`"${op}" takes ${wanted} arguments, got ${args.length}`);
  }
}

/**
 * `==` on exact decimals when both sides are numeric, json-logic-js's loose equality otherwise (two
 * strings are equal as written: an address or asset is in canonical spelling on both sides,
 * canonical-literals.ts).
 */
function equal(op: string, a: unknown, b: unknown): boolean {
  requirePresent(op, a);
  requirePresent(op, b);
  const aNumeric = isNumericLike(a);
  const bNumeric = isNumericLike(b);
  if (aNumeric && bNumeric) return toDecimal(a).eq(toDecimal(b));
  // A number never equals a non-number: loose `==` would make "" == 0 and false == 0 true.
  if (aNumeric || bNumeric) return false;
  return a == b;
}

/** Chained comparison: each adjacent pair must satisfy `holds` (the 3-argument "between" form). */
function chain(op: string, args: unknown[], max: number, holds: (cmp: number) => boolean): boolean {
  requireArity(op, args, 2, max);
  const values = args.map((arg) => operand(op, arg));
  return values.every((value, i) => i === 0 || holds((values[i - 1] as Dec).cmp(value)));
}

function nonZeroDivisor(op: string, value: unknown): Dec {
  const divisor = operand(op, value);
  if (isZero(divisor)) throw new LogicError(`"${op}" divides by zero`);
  return divisor;
}

function quotient(a: unknown, b: unknown): string {
  const exact = exactQuotient(operand("/", a), nonZeroDivisor("/", b));
  if (exact === null) {
    throw new LogicError(`"/" has no exact quotient within ${QUOTIENT_PLACES} decimal places (as 1/3): multiply the other side of the comparison instead`);
  }
  return decimalText(exact);
}

/** The least (`min`) or greatest (`max`) of one or more numbers. */
function extreme(op: "min" | "max", args: unknown[]): string {
  requireArity(op, args, 1, Infinity);
  const [first, ...rest] = args.map((arg) => operand(op, arg)) as [Dec, ...Dec[]];
  const keeps = (best: Dec, value: Dec) => (op === "min" ? best.lte(value) : best.gte(value));
  return decimalText(rest.reduce((best, value) => (keeps(best, value) ? best : value), first));
}

export const DECIMAL_OPERATIONS: Readonly<Record<string, (...args: unknown[]) => unknown>> = {
  "==": (...args) => (requireArity("==", args, 2, 2), equal("==", args[0], args[1])),
  "!=": (...args) => (requireArity("!=", args, 2, 2), !equal("!=", args[0], args[1])),
  "<": (...args) => chain("<", args, 3, (c) => c < 0),
  "<=": (...args) => chain("<=", args, 3, (c) => c <= 0),
  ">": (...args) => chain(">", args, 2, (c) => c > 0),
  ">=": (...args) => chain(">=", args, 2, (c) => c >= 0),
  "+": (...args) => decimalText(args.reduce<Dec>((sum, arg) => sum.plus(operand("+", arg)), toDecimal("0"))),
  "*": (...args) => {
    requireArity("*", args, 1, Infinity);
    const [first, ...rest] = args.map((arg) => operand("*", arg)) as [Dec, ...Dec[]];
    return decimalText(rest.reduce((product, factor) => product.times(factor), first));
  },
  "-": (...args) => {
    requireArity("-", args, 1, 2);
    const a = operand("-", args[0]);
    return decimalText(args.length === 1 ? a.neg() : a.minus(operand("-", args[1])));
  },
  "/": (...args) => (requireArity("/", args, 2, 2), quotient(args[0], args[1])),
  // The remainder takes the dividend's sign, as JavaScript's and json-logic-js's `%` do.
  "%": (...args) => (requireArity("%", args, 2, 2), decimalText(operand("%", args[0]).mod(nonZeroDivisor("%", args[1])))),
  min: (...args) => extreme("min", args),
  max: (...args) => extreme("max", args),
};
