/**
 * The error a JSON-logic expression raises when it cannot be evaluated (a missing operand in a
 * comparison, a non-numeric amount, a forbidden operation). Evaluation turns it into a value in
 * the trace; it is thrown only inside the JSON-logic interpreter, which has no other channel.
 */
export class LogicError extends Error {
  readonly code = "LOGIC_EVALUATION" as const;

  constructor(message: string) {
    super(message);
    this.name = "LogicError";
  }
}

/** A short, safe description of an operand for error messages (never the whole value). */
export function describeValue(value: unknown): string {
  if (value === undefined) return "a missing value";
  if (value === null) return "null";
  if (typeof value === "string") {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return `the string ${JSON.stringify(shown)}`;
  }
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return "an array";
  return `a value of type ${typeof value}`;
}
