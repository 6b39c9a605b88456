/**
 * Shape 1 `details.stellarTransaction`: one transfer per operation. The reference allows exactly
 * one of `payment` (classic asset `CODE-ISSUER`, 7-decimal `rawAmount`) and `sep41Payment`
 * (contract token, raw amount only) per operation body. Any other body (createAccount, changeTrust,
 * an approval, ...) is refused: countersign could not say what value it moves, and signing part of
 * a transaction on the strength of its other operations would be signing what the policy never saw.
 */
import { err, ok, type AppError, type Result } from "../errors.js";
import { stellarAmount } from "./assets.js";
import { parseEndpoint } from "./endpoint.js";
import { check, invalidAt } from "./issues.js";
import { sep41Payment, stellarPayment, stellarTransaction } from "./schemas.js";
import type { ShapeResult } from "./shape.js";
import { at, makeTransfer, presentKeys } from "./transfer.js";
import type { Transfer } from "./types.js";

interface StellarContext {
  network: string;
  /** The transaction-level source: the sponsor paying the fee. */
  sponsor: string;
}

export function fromStellarDetails(input: unknown, path: string): Result<ShapeResult, AppError> {
  const parsed = check(stellarTransaction, input, path);
  if (!parsed.ok) return parsed;
  const tx = parsed.value;
  const ctx: StellarContext = { network: tx.network, sponsor: tx.sourceAddress };
  const transfers: Transfer[] = [];
  for (const [index, operation] of tx.operations.entries()) {
    const transfer = fromOperation(index, operation, at(at(path, "operations"), index), ctx);
    if (!transfer.ok) return transfer;
    transfers.push(transfer.value);
  }
  return ok({ kind: "stellarTransaction", transfers, network: tx.network });
}

interface Operation {
  sourceAccountAddress: string;
  body: Record<string, unknown>;
}

function fromOperation(index: number, op: Operation, path: string, ctx: StellarContext): Result<Transfer, AppError> {
  const bodyPath = at(path, "body");
  const keys = presentKeys(op.body);
  const key = keys[0];
  if (keys.length !== 1 || (key !== "payment" && key !== "sep41Payment")) {
    return err(invalidAt(bodyPath, "must hold exactly one of payment, sep41Payment"));
  }
  return key === "payment"
    ? fromPayment(index, op, at(bodyPath, key), ctx)
    : fromSep41Payment(index, op, at(bodyPath, key), ctx);
}

function fromPayment(index: number, op: Operation, path: string, ctx: StellarContext): Result<Transfer, AppError> {
  const parsed = check(stellarPayment, op.body.payment, path);
  if (!parsed.ok) return parsed;
  const p = parsed.value;
  return ok(
    makeTransfer(index, {
      // As given, `native` included: the asset string is the policy's to read.
      asset: p.asset,
      assetStandard: "stellarClassic",
      amount: stellarAmount(p.rawAmount),
      rawAmount: p.rawAmount,
      source: parseEndpoint(op.sourceAccountAddress),
      destination: parseEndpoint(p.destinationAddress),
      sponsor: ctx.sponsor,
      fallbackNetwork: ctx.network,
    }),
  );
}

function fromSep41Payment(index: number, op: Operation, path: string, ctx: StellarContext): Result<Transfer, AppError> {
  const parsed = check(sep41Payment, op.body.sep41Payment, path);
  if (!parsed.ok) return parsed;
  const p = parsed.value;
  // The reference requires the two to be equal; a body where they differ cannot say whose funds move.
  if (p.sourceAddress != null && p.sourceAddress !== op.sourceAccountAddress) {
    return err(invalidAt(at(path, "sourceAddress"), "must equal the operation's sourceAccountAddress"));
  }
  return ok(
    makeTransfer(index, {
      asset: p.contractAddress,
      assetStandard: "sep41",
      // The token's decimals are not in the body: only the raw amount is known.
      amount: null,
      rawAmount: p.rawAmount,
      source: parseEndpoint(op.sourceAccountAddress),
      destination: parseEndpoint(p.destinationAddress),
      sponsor: ctx.sponsor,
      fallbackNetwork: ctx.network,
    }),
  );
}
