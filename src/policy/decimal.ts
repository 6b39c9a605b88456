/**
 * Exact decimals for policy comparisons and arithmetic. A private big.js constructor in strict
 * mode, so that nothing here can silently fall back to binary floating point, and other modules'
 * big.js settings cannot change ours.
 */
import Big from "big.js";

const Decimal = Big();
Decimal.strict = true;

export type Dec = Big.Big;

const ZERO = new Decimal("0");

const NUMERIC_STRING = /^-?[0-9]+(\.[0-9]+)?$/;

/** Numeric-like: a finite JS number, or a string holding a plain decimal (no exponent, no sign +). */
export function isNumericLike(value: unknown): value is number | string {
  if (typeof value === "number") return Number.isFinite(value);
  return typeof value === "string" && NUMERIC_STRING.test(value);
}

/**
 * The exact decimal a numeric-like value denotes. A number is taken as its shortest round-trip
 * text (`0.1` is 0.1, not 0.1000000000000000055…), which is what a policy author wrote.
 */
export function toDecimal(value: number | string): Dec {
  return new Decimal(typeof value === "number" ? String(value) : value);
}

/** Plain decimal text without exponent or trailing zeros; negative zero becomes "0". */
export function decimalText(value: Dec): string {
  return value.eq(ZERO) ? "0" : value.toFixed();
}
