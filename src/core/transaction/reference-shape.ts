/**
 * Shape 1: the transaction as the reference describes it, with `details` holding exactly one of
 * `assetTransfer`, `assetBatchTransfer`, `stellarTransaction`, `evmAccountDelegation`. Another key
 * is a kind countersign does not know: not malformed, evaluated as `unknown` (docs/interface.md section 1;
 * the field scan lists it as a payload).
 */
import { err, ok, type AppError, type Result } from "../errors.js";
import { assetAt } from "../chains/assets.js";
import { accountFamily } from "../chains/registry.js";
import { detailsObjectTransfers } from "../chains/transfer-objects.js";
import { endpointAt } from "./endpoint-at.js";
import { check, invalidAt } from "./issues.js";
import { assetBatchTransfer, assetTransfer } from "./schemas.js";
import type { ShapeContext, ShapeResult } from "./shape.js";
import { sourceAt, sponsorAt } from "./sources.js";
import { at, makeTransfer, presentKeys } from "./transfer.js";
import type { Transfer } from "./types.js";

/** The one kind key of `details`, or a 400 when it holds several. */
export function detailsKind(details: Record<string, unknown>, path: string): Result<string | null, AppError> {
  const keys = presentKeys(details);
  // Two kinds at once would let one hide behind the other: evaluating either alone could sign
  // value the policy never saw, so the body is refused.
  if (keys.length > 1) return err(invalidAt(at(path, "details"), "must hold exactly one kind of transaction"));
  return ok(keys[0] ?? null);
}

export function fromDetails(details: Record<string, unknown>, key: string | null, ctx: ShapeContext): Result<ShapeResult, AppError> {
  const path = at(ctx.path, "details");
  const fromObject = key === null ? null : detailsObjectTransfers(key, details[key], at(path, key), ctx);
  if (fromObject !== null) return fromObject;
  switch (key) {
    case "assetTransfer":
      return fromAssetTransfer(details[key], at(path, key), ctx);
    case "assetBatchTransfer":
      return fromBatchTransfer(details[key], at(path, key), ctx);
    case "evmAccountDelegation":
      return ok({ kind: "evmAccountDelegation", transfers: [], payloads: [], network: null });
    default:
      return ok({ kind: "unknown", transfers: [], payloads: [], network: null });
  }
}

function fromAssetTransfer(input: unknown, path: string, ctx: ShapeContext): Result<ShapeResult, AppError> {
  const parsed = check(assetTransfer, input, path);
  if (!parsed.ok) return parsed;
  const t = parsed.value;
  const transfer = transferFrom(0, { ...t, sponsor: t.sponsor ?? null }, path, ctx, "");
  if (!transfer.ok) return transfer;
  return ok({ kind: "assetTransfer", transfers: [transfer.value], payloads: [], network: null });
}

/** One transfer per destination, all from the batch's source in the batch's asset. */
function fromBatchTransfer(input: unknown, path: string, ctx: ShapeContext): Result<ShapeResult, AppError> {
  const parsed = check(assetBatchTransfer, input, path);
  if (!parsed.ok) return parsed;
  const batch = parsed.value;
  const transfers: Transfer[] = [];
  for (const [index, d] of batch.destinations.entries()) {
    const fields = { asset: batch.asset, source: batch.source, sponsor: batch.sponsor ?? null, ...d };
    const transfer = transferFrom(index, fields, path, ctx, at(at("", "destinations"), index));
    if (!transfer.ok) return transfer;
    transfers.push(transfer.value);
  }
  return ok({ kind: "assetTransfer", transfers, payloads: [], network: null });
}

interface Fields {
  asset: string;
  amount: string;
  source: string;
  destination: string;
  sponsor: string | null;
}

/** `destinationPath` is where the destination and amount sit below `path` (a batch's destinations[i]). */
function transferFrom(index: number, f: Fields, path: string, ctx: ShapeContext, destinationPath: string): Result<Transfer, AppError> {
  const under = destinationPath === "" ? path : `${path}.${destinationPath}`;
  const asset = assetAt(f.asset, at(path, "asset"), ctx.network);
  if (!asset.ok) return asset;
  const family = accountFamily(asset.value, ctx.network);
  const source = sourceAt(f.source, at(path, "source"), ctx, family);
  if (!source.ok) return source;
  const destination = endpointAt(f.destination, at(under, "destination"), ctx, family);
  if (!destination.ok) return destination;
  const sponsor = sponsorAt(f.sponsor, at(path, "sponsor"), ctx);
  if (!sponsor.ok) return sponsor;
  return ok(
    makeTransfer(index, {
      asset: asset.value,
      amount: f.amount,
      rawAmount: null,
      source: source.value,
      destination: destination.value,
      sponsor: sponsor.value,
      fallbackNetwork: ctx.network,
    }),
  );
}
