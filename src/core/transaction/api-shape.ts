/**
 * Shape 2: the transaction as the custody API returns it from GetTransaction. The transfers come
 * from `transfers[]`, except where a family's own transaction object states them (a Stellar
 * transaction's decoded operations), reconciled with `transfers[]` (chains/transfer-objects.ts). Hints such as `infoRef` and
 * `referencedAddressesInfo` are never read (docs/interface.md section 1).
 */
import { err, ok, type AppError, type Result } from "../errors.js";
import { amountsAgree, knownDecimals } from "./amounts.js";
import { assetAt } from "../chains/assets.js";
import { accountFamily, nativeDecimalsOf } from "../chains/registry.js";
import { apiObjectTransfers } from "../chains/transfer-objects.js";
import { endpointAt } from "./endpoint-at.js";
import { check, invalidAt } from "./issues.js";
import { apiTransfer } from "./schemas.js";
import type { ShapeContext, ShapeResult } from "./shape.js";
import { sourceAt } from "./sources.js";
import { at, makeTransfer } from "./transfer.js";
import type { TransactionKind, Transfer } from "./types.js";

export function fromApi(tx: Record<string, unknown>, kind: TransactionKind, transfersIn: readonly unknown[], ctx: ShapeContext): Result<ShapeResult, AppError> {
  const listed: Transfer[] = [];
  for (const [index, input] of transfersIn.entries()) {
    const transfer = fromApiTransfer(index, input, ctx);
    if (!transfer.ok) return transfer;
    listed.push(transfer.value);
  }
  const fromObject = apiObjectTransfers(tx, listed, ctx);
  if (fromObject !== null) return fromObject;
  // A delegation moves no value. One that lists transfers is not what it claims: its transfers
  // are kept and it is evaluated as `unknown`, never signed as a bare delegation.
  const finalKind = kind === "evmAccountDelegation" && listed.length > 0 ? "unknown" : kind;
  return ok({ kind: finalKind, transfers: listed, payloads: [], network: null });
}

function fromApiTransfer(index: number, input: unknown, ctx: ShapeContext): Result<Transfer, AppError> {
  const path = at(at(ctx.path, "transfers"), index);
  const parsed = check(apiTransfer, input, path);
  if (!parsed.ok) return parsed;
  const t = parsed.value;
  const asset = assetAt(t.asset, at(path, "asset"), ctx.network);
  if (!asset.ok) return asset;
  const family = accountFamily(asset.value, ctx.network);
  const source = sourceAt(t.sourceAddress?.value ?? null, at(path, "sourceAddress"), ctx, family);
  if (!source.ok) return source;
  const destination = endpointAt(t.destinationAddress.value, at(at(path, "destinationAddress"), "value"), ctx, family);
  if (!destination.ok) return destination;
  const transfer = makeTransfer(index, {
    asset: asset.value,
    amount: t.amount ?? null,
    rawAmount: t.rawAmount ?? null,
    source: source.value,
    destination: destination.value,
    sponsor: null,
    fallbackNetwork: ctx.network,
  });
  // Two statements of one amount that disagree: countersign never picks the milder one.
  if (transfer.amount !== null && transfer.rawAmount !== null && !amountsAgree(transfer.amount, transfer.rawAmount, knownDecimals(transfer, nativeDecimalsOf))) {
    return err(invalidAt(at(path, "rawAmount"), "disagrees with amount"));
  }
  return ok(transfer);
}
