/**
 * Exact decimals for policy comparisons and arithmetic. A private big.js constructor in strict
 * mode, so that nothing here can silently fall back to binary floating point, and other modules'
 * big.js settings cannot change ours.
 */
import Big from "big.js";

const Decimal = Big();
Decimal.strict = true;

/**
 * How many decimal places a quotient may need and stay exact: an 18-decimal amount halved needs
 * 19, a 24-decimal one (NEAR's yocto) divided by 1,024 needs 34. A quotient that needs more, or
 * never ends (1/3), has no exact decimal: exactQuotient says so rather than round it.
 */
export const QUOTIENT_PLACES = 50;
Decimal.DP = QUOTIENT_PLACES;
Decimal.RM = Big.roundDown;

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

export function isZero(value: Dec): boolean {
  return value.eq(ZERO);
}

/** Plain decimal text without exponent or trailing zeros; negative zero becomes "0". */
export function decimalText(value: Dec): string {
  return isZero(value) ? "0" : value.toFixed();
}

/**
 * a / b exactly, or null when the quotient does not end within QUOTIENT_PLACES decimal places: a
 * rounded quotient would move a limit compared with it, the wrong way for one side or the other.
 * The caller refuses a zero divisor first.
 */
export function exactQuotient(a: Dec, b: Dec): Dec | null {
  const quotient = a.div(b);
  return quotient.times(b).eq(a) ? quotient : null;
}
