/**
 * Turning validation failures into AppError values. Messages name the JSON path of the offending
 * field (`details.assetTransfer.amount`) and never echo input, which may be large or sensitive.
 */
import type { z } from "zod";
import { AppError } from "../errors.js";

/** Path of a field in the body as received: `transaction.` is prefixed when the body was wrapped. */
export function jsonPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out === "" ? "(body)" : out;
}

export function invalidAt(path: string, message: string): AppError {
  return new AppError("INVALID_TRANSACTION", `${path}: ${message}`, { details: [{ path, message }] });
}

const MAX_REPORTED_ISSUES = 10;

export function fromZodError(error: z.ZodError, prefix: string): AppError {
  const issues = error.issues.slice(0, MAX_REPORTED_ISSUES).map((issue) => ({
    path: jsonPath(prefix, issue.path),
    message: issue.message,
  }));
  const first = issues[0] ?? { path: jsonPath(prefix, []), message: "is invalid" };
  return new AppError("INVALID_TRANSACTION", `${first.path}: ${first.message}`, { details: issues });
}

/** Validates `input` (found at `prefix`) against `schema`, as a Result. */
export function check<T>(schema: z.ZodType<T>, input: unknown, prefix: string): { ok: true; value: T } | { ok: false; error: AppError } {
  const parsed = schema.safeParse(input);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: fromZodError(parsed.error, prefix) };
}
