/**
 * Shape 1: the transaction as the reference describes it, with `details` holding exactly one of
 * `assetTransfer`, `assetBatchTransfer`, `stellarTransaction`, `evmAccountDelegation`. Another key
 * is a kind countersign does not know: not malformed, evaluated as `unknown` (CONTRACT.md section 1).
 */
import { err, ok, type AppError, type Result } from "../errors.js";
import { parseEndpoint } from "./endpoint.js";
import { check, invalidAt } from "./issues.js";
import { assetBatchTransfer, assetTransfer } from "./schemas.js";
import type { ShapeContext, ShapeResult } from "./shape.js";
import { fromStellarDetails } from "./stellar-details.js";
import { at, makeTransfer, presentKeys } from "./transfer.js";

export function fromDetails(details: Record<string, unknown>, ctx: ShapeContext): Result<ShapeResult, AppError> {
  const path = at(ctx.path, "details");
  const keys = presentKeys(details);
  // Two kinds at once would let one hide behind the other: evaluating either alone could sign
  // value the policy never saw, so the body is refused.
  if (keys.length > 1) return err(invalidAt(path, "must hold exactly one kind of transaction"));
  const key = keys[0];
  switch (key) {
    case "assetTransfer":
      return fromAssetTransfer(details[key], at(path, key), ctx);
    case "assetBatchTransfer":
      return fromBatchTransfer(details[key], at(path, key), ctx);
    case "stellarTransaction":
      return fromStellarDetails(details[key], at(path, key));
    case "evmAccountDelegation":
      return ok({ kind: "evmAccountDelegation", transfers: [], network: null });
    default:
      return ok({ kind: "unknown", transfers: [], network: null });
  }
}

function fromAssetTransfer(input: unknown, path: string, ctx: ShapeContext): Result<ShapeResult, AppError> {
  const parsed = check(assetTransfer, input, path);
  if (!parsed.ok) return parsed;
  const t = parsed.value;
  const transfer = makeTransfer(0, {
    asset: t.asset,
    amount: t.amount,
    rawAmount: null,
    source: parseEndpoint(t.source),
    destination: parseEndpoint(t.destination),
    sponsor: t.sponsor ?? null,
    fallbackNetwork: ctx.network,
  });
  return ok({ kind: "assetTransfer", transfers: [transfer], network: null });
}

/** One transfer per destination, all from the batch's source in the batch's asset. */
function fromBatchTransfer(input: unknown, path: string, ctx: ShapeContext): Result<ShapeResult, AppError> {
  const parsed = check(assetBatchTransfer, input, path);
  if (!parsed.ok) return parsed;
  const batch = parsed.value;
  const transfers = batch.destinations.map((d, index) =>
    makeTransfer(index, {
      asset: batch.asset,
      amount: d.amount,
      rawAmount: null,
      source: parseEndpoint(batch.source),
      destination: parseEndpoint(d.destination),
      sponsor: batch.sponsor ?? null,
      fallbackNetwork: ctx.network,
    }),
  );
  return ok({ kind: "assetTransfer", transfers, network: null });
}
