/** A fee a chain object states as a count of the native coin's smallest units (lamports, stroops). */
import { ok } from "../errors.js";
import { check } from "../transaction/issues.js";
import { rawAmount } from "../transaction/schemas.js";
import { at, isRecord } from "../transaction/transfer.js";
import type { FeeReader } from "./family.js";
import { inWholeUnits } from "./fee-units.js";

export const smallestUnitFee = (object: string, field: string, decimals: number): FeeReader => ({
  object,
  read: (snapshot, network, path) => {
    const holder = snapshot[object];
    if (!isRecord(holder) || holder[field] == null) return ok(null);
    const counted = check(rawAmount, holder[field], at(at(path, object), field));
    return counted.ok ? ok(inWholeUnits(counted.value, decimals, network)) : counted;
  },
});
