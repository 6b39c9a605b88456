/**
 * Shape 1 `details.stellarTransaction`: its operations, as the reference describes them. Each
 * operation body holds exactly one operation; `payment` (classic asset `CODE-ISSUER`, 7-decimal
 * `rawAmount`) and `sep41Payment` (contract token, raw amount only) are transfers, anything else a
 * payload (stellar-operations.ts).
 */
import { err, ok, type AppError, type Result } from "../../errors.js";
import { networkId } from "../assets.js";
import { endpointAt } from "../../transaction/endpoint-at.js";
import { classicAssetAt, stellarAssetAt } from "./assets.js";
import { check, invalidAt } from "../../transaction/issues.js";
import { sep41Payment, stellarPayment, stellarTransaction } from "../../transaction/schemas.js";
import type { ShapeContext, ShapeResult } from "../../transaction/shape.js";
import { sourceAt } from "../../transaction/sources.js";
import { agreedOperations, readEnvelope } from "./envelope.js";
import { stellarMoves, type StellarOperation } from "./operations.js";
import { at, presentKeys } from "../../transaction/transfer.js";
import type { Memo } from "../../transaction/types.js";

export function fromStellarDetails(input: unknown, path: string, ctx: ShapeContext): Result<ShapeResult, AppError> {
  const parsed = check(stellarTransaction, input, path);
  if (!parsed.ok) return parsed;
  const tx = parsed.value;
  // A Stellar transaction on another network describes two kinds at once (docs/interface.md section 1),
  // as the API shape's top-level network is checked in kind.ts.
  if (!networkId(tx.network).startsWith("stellar-")) return err(invalidAt(at(path, "network"), "is not a Stellar network"));
  const operations: StellarOperation[] = [];
  for (const [index, operation] of tx.operations.entries()) {
    const op = fromOperation(operation, at(at(path, "operations"), index), ctx);
    if (!op.ok) return op;
    operations.push(op.value);
  }
  const envelope = tx.rawXdrEnvelope == null ? null : withEnvelope(tx.rawXdrEnvelope, tx, operations, path, ctx);
  if (envelope !== null && !envelope.ok) return envelope;
  const moves = stellarMoves(envelope?.value.operations ?? operations, tx.network, tx.sourceAddress);
  const envelopeMemo = envelope === null ? {} : { envelopeMemo: envelope.value.memo, envelopeFee: envelope.value.fee };
  return ok({ kind: "stellarTransaction", ...moves, network: tx.network, ...envelopeMemo });
}

/** The operations, checked against the signed envelope (stellar-envelope.ts), and the envelope's memo and fee. */
function withEnvelope(
  raw: string,
  tx: { network: string; sourceAddress: string },
  operations: StellarOperation[],
  path: string,
  ctx: ShapeContext,
): Result<{ operations: StellarOperation[]; memo: Memo | null; fee: string }, AppError> {
  const envelopePath = at(path, "rawXdrEnvelope");
  const envelope = readEnvelope(raw, { source: tx.sourceAddress }, envelopePath, ctx);
  if (!envelope.ok) return envelope;
  const agreed = agreedOperations(envelope.value, operations, tx.network, envelopePath, at(path, "operations"));
  return agreed.ok ? ok({ operations: agreed.value, memo: envelope.value.memo, fee: envelope.value.fee }) : agreed;
}

interface Operation {
  sourceAccountAddress: string;
  body: Record<string, unknown>;
}

function fromOperation(op: Operation, path: string, ctx: ShapeContext): Result<StellarOperation, AppError> {
  const bodyPath = at(path, "body");
  const keys = presentKeys(op.body);
  const key = keys[0];
  if (keys.length !== 1 || key === undefined) return err(invalidAt(bodyPath, "must hold exactly one operation"));
  const source = sourceAt(op.sourceAccountAddress, at(path, "sourceAccountAddress"), ctx);
  if (!source.ok) return source;
  if (key === "payment") return fromPayment(op.body[key], source.value, at(bodyPath, key), ctx);
  if (key === "sep41Payment") return fromSep41Payment(op, source.value, at(bodyPath, key), ctx);
  return ok({ kind: "other", name: key, source: source.value });
}

function fromPayment(input: unknown, source: StellarOperationSource, path: string, ctx: ShapeContext): Result<StellarOperation, AppError> {
  const parsed = check(stellarPayment, input, path);
  if (!parsed.ok) return parsed;
  const p = parsed.value;
  const destination = endpointAt(p.destinationAddress, at(path, "destinationAddress"), ctx);
  if (!destination.ok) return destination;
  const asset = classicAssetAt(p.asset, at(path, "asset"));
  if (!asset.ok) return asset;
  return ok({ kind: "payment", source, destination: destination.value, asset: asset.value, rawAmount: p.rawAmount });
}

function fromSep41Payment(op: Operation, source: StellarOperationSource, path: string, ctx: ShapeContext): Result<StellarOperation, AppError> {
  const parsed = check(sep41Payment, op.body.sep41Payment, path);
  if (!parsed.ok) return parsed;
  const p = parsed.value;
  // The reference requires the two to be equal; a body where they differ cannot say whose funds move.
  if (p.sourceAddress != null && p.sourceAddress !== op.sourceAccountAddress) {
    return err(invalidAt(at(path, "sourceAddress"), "must equal the operation's sourceAccountAddress"));
  }
  const destination = endpointAt(p.destinationAddress, at(path, "destinationAddress"), ctx);
  if (!destination.ok) return destination;
  const contract = stellarAssetAt(p.contractAddress, at(path, "contractAddress"));
  if (!contract.ok) return contract;
  return ok({ kind: "sep41Payment", source, destination: destination.value, contract: contract.value, rawAmount: p.rawAmount });
}

type StellarOperationSource = Extract<StellarOperation, { kind: "payment" }>["source"];
