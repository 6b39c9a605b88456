/**
 * A family's own transaction object that states the transfers (family.ts, TransferObject): where a
 * body carries one, its transfers are read from it by its family, in either shape.
 */
import type { AppError, Result } from "../errors.js";
import type { ShapeContext, ShapeResult } from "../transaction/shape.js";
import { isRecord } from "../transaction/transfer.js";
import type { Transfer } from "../transaction/types.js";
import type { TransferObject } from "./family.js";
import { FAMILIES, OTHER_FAMILIES } from "./registry.js";

const TRANSFER_OBJECTS: readonly TransferObject[] = FAMILIES.flatMap((f) => (f.transferObject ? [f.transferObject] : []));

/** The API shape: the transfers of the family object `tx` carries, read with those `transfers[]` lists; null when it carries none. */
export function apiObjectTransfers(tx: Record<string, unknown>, listed: readonly Transfer[], ctx: ShapeContext): Result<ShapeResult, AppError> | null {
  const object = TRANSFER_OBJECTS.find((o) => isRecord(tx[o.key]));
  return object === undefined ? null : object.fromApi(tx[object.key], listed, ctx, OTHER_FAMILIES);
}

/** The reference shape: the transfers of `details.<key>` when `key` names a family's object, else null. */
export function detailsObjectTransfers(key: string, input: unknown, path: string, ctx: ShapeContext): Result<ShapeResult, AppError> | null {
  const object = TRANSFER_OBJECTS.find((o) => o.key === key);
  return object === undefined ? null : object.fromDetails(input, path, ctx);
}
