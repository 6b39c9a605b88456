/**
 * The memo a transaction carries, for the `tx.memo` fact. An exchange credits a deposit to the
 * account its memo names, so a policy that trusts an exchange's address must be able to pin the
 * memo as well: without it, a transfer to the exchange with anyone's memo looked the same.
 *
 * Read from the signed Stellar envelope when the body carries one (stellar-envelope.ts refuses a
 * stated memo that disagrees with it), else as stated: `stellarTransaction.memo` (shape 2),
 * `details.assetTransfer.stellarOptions.memo` (shape 1), or TON's `tonTransaction.memo` (a text).
 * Types are upper case; a HASH or RETURN memo is `0x` and lower-case hex, as the envelope gives it.
 */
import { z } from "zod";
import { err, ok, type AppError, type Result } from "../errors.js";
import { invalidAt } from "./issues.js";
import { at, isRecord } from "./transfer.js";
import type { Memo } from "./types.js";

const MEMO_TYPES = ["TEXT", "ID", "HASH", "RETURN"] as const;
const typedMemo = z.object({ type: z.string(), data: z.string() });

/** The memo the body states, or null; a stated memo that is not `{type, data}` of a known type is a 400. */
export function statedMemo(snapshot: Record<string, unknown>, path: string): Result<Memo | null, AppError> {
  const stellar = isRecord(snapshot.stellarTransaction) ? snapshot.stellarTransaction.memo : undefined;
  if (stellar != null) return typed(stellar, at(at(path, "stellarTransaction"), "memo"));
  const stellarOptions = isRecord(snapshot.details) && isRecord(snapshot.details.assetTransfer) ? snapshot.details.assetTransfer.stellarOptions : undefined;
  const options = isRecord(stellarOptions) ? stellarOptions.memo : undefined;
  if (options != null) return typed(options, at(path, "details.assetTransfer.stellarOptions.memo"));
  const ton = isRecord(snapshot.tonTransaction) ? snapshot.tonTransaction.memo : undefined;
  if (ton == null || ton === "") return ok(null);
  return typeof ton === "string" ? ok({ type: "TEXT", data: ton }) : err(invalidAt(at(path, "tonTransaction.memo"), "must be a string"));
}

function typed(value: unknown, path: string): Result<Memo, AppError> {
  const memo = normalMemo(value);
  return memo === null ? err(invalidAt(path, `must be {type, data} with type ${MEMO_TYPES.join(", ")}`)) : ok(memo);
}

/**
 * A stated memo `{type, data}` in the one spelling the envelope's memo has (type upper case, a hash
 * as `0x` and lower-case hex), or null when it is not a memo of a known type.
 */
export function normalMemo(value: unknown): Memo | null {
  const parsed = typedMemo.safeParse(value);
  if (!parsed.success) return null;
  const type = parsed.data.type.toUpperCase();
  if (!(MEMO_TYPES as readonly string[]).includes(type)) return null;
  const data = type === "HASH" || type === "RETURN" ? `0x${parsed.data.data.replace(/^0x/i, "").toLowerCase()}` : parsed.data.data;
  return { type, data };
}
