/**
 * Aleo. The fee is `feeMicrocredits`, or the fee transition it signs (`feeOperation`: its
 * `amountMicrocredits` and `priorityFeeMicrocredits` together) when that is higher: a fee
 * transition paying 900,000 ALEO of priority fee beside `feeMicrocredits: "2500"` must not be read
 * as a 0.0025 ALEO fee. An operation that holds none of the decoded operations (only its
 * `program`, `transition`, ...) is a call countersign cannot read: the payload `aleo:unknown`.
 */
import { z } from "zod";
import { ok, type AppError, type Result } from "../../errors.js";
import { ALEO_OPERATIONS } from "../../transaction/field-classes.js";
import { isPresent } from "../../transaction/fields.js";
import { check } from "../../transaction/issues.js";
import { rawAmount } from "../../transaction/schemas.js";
import { at, isRecord } from "../../transaction/transfer.js";
import type { Fee } from "../../transaction/types.js";
import type { ChainFamily, ObjectReading } from "../family.js";
import { inWholeUnits } from "../fee-units.js";

/** Microcredits per credit. */
const ALEO_DECIMALS = 6;

const aleoFee = z
  .object({
    feeMicrocredits: rawAmount.nullish(),
    feeOperation: z.object({ amountMicrocredits: rawAmount.nullish(), priorityFeeMicrocredits: rawAmount.nullish() }).passthrough().nullish(),
  })
  .passthrough();

function aleoPaidFee(snapshot: Record<string, unknown>, network: string | null, path: string): Result<Fee | null, AppError> {
  if (!isRecord(snapshot.aleoTransaction)) return ok(null);
  const parsed = check(aleoFee, snapshot.aleoTransaction, at(path, "aleoTransaction"));
  if (!parsed.ok) return parsed;
  const { feeMicrocredits, feeOperation } = parsed.value;
  const parts = [feeOperation?.amountMicrocredits, feeOperation?.priorityFeeMicrocredits].filter((a): a is string => a != null);
  const readings = [...(feeMicrocredits == null ? [] : [BigInt(feeMicrocredits)]), ...(parts.length === 0 ? [] : [parts.reduce((a, b) => a + BigInt(b), 0n)])];
  if (readings.length === 0) return ok(null);
  const highest = readings.reduce((a, b) => (a > b ? a : b));
  return ok(inWholeUnits(highest.toString(), ALEO_DECIMALS, network));
}

function aleoObjects(tx: Record<string, unknown>): Result<ObjectReading, AppError> {
  const input = tx.aleoTransaction;
  const operations = isRecord(input) && Array.isArray(input.operations) ? input.operations : [];
  const undecoded = operations.some((op) => isRecord(op) && !ALEO_OPERATIONS.some((name) => isPresent(op[name])));
  return ok({ payloads: undecoded ? ["aleo:unknown"] : [] });
}

export const aleo: ChainFamily = {
  name: "aleo",
  networks: /^aleo-/,
  fees: [{ object: "aleoTransaction", read: aleoPaidFee }],
  classifyObjects: aleoObjects,
};
