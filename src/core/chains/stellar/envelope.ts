/**
 * The envelope is the truth. A Stellar transaction body carries the decoded operations countersign
 * reads and the raw envelope (`rawXdrEnvelope`) the co-signer actually signs; were the envelope
 * not read, one holding a second payment, a larger amount, another destination or a setOptions
 * would be signed as the milder decoded list says. So the envelope is decoded (stellar-xdr.ts) and
 * must agree with the decoded operations one for one — count, order, type, source account,
 * destination, asset, amount — and with what the body states of the transaction (its source
 * account, fee and memo, where given); any difference is refused with 400. With no decoded operations, the envelope's are the operations.
 */
import Big from "big.js";
import { err, ok, type AppError, type Result } from "../../errors.js";
import { sameAddress } from "../accounts.js";
import { assetIdentity } from "../assets.js";
import { invalidAt } from "../../transaction/issues.js";
import type { ShapeContext } from "../../transaction/shape.js";
import { sameEndpoint, type StellarOperation } from "./operations.js";
import { envelopeTransaction, type EnvelopeTransaction } from "./xdr.js";
import { at } from "../../transaction/transfer.js";
import { normalMemo } from "../../transaction/memo.js";

/** What the body states about the transaction beside its operations; null or absent: not stated. */
export interface Stated {
  source: string | null;
  fee?: unknown;
  memo?: unknown;
}

/** The envelope at `path` (`….rawXdrEnvelope`), decoded; it must say what the body states of it. */
export function readEnvelope(base64: string, stated: Stated, path: string, ctx: ShapeContext): Result<EnvelopeTransaction, AppError> {
  const envelope = envelopeTransaction(base64, path, ctx);
  if (!envelope.ok) return envelope;
  const signed = envelope.value;
  if (stated.source !== null && !sameAddress(stated.source, signed.source)) {
    return err(invalidAt(path, "its source account disagrees with the transaction's source account"));
  }
  if (stated.fee != null && !(typeof stated.fee === "string" && INTEGER.test(stated.fee) && sameRaw(stated.fee, signed.fee))) {
    return err(invalidAt(path, "its fee disagrees with the transaction's fee"));
  }
  if (stated.memo != null && !sameMemo(stated.memo, signed.memo)) return err(invalidAt(path, "its memo disagrees with the transaction's memo"));
  return envelope;
}

const INTEGER = /^[0-9]{1,20}$/;

/** A memo `{type, data}` as the API writes it, in memo.ts's one spelling: hashes compare as hex, with or without `0x`, in any case. */
function sameMemo(stated: unknown, signed: EnvelopeTransaction["memo"]): boolean {
  const memo = normalMemo(stated);
  return memo !== null && signed !== null && memo.type === signed.type && memo.data === signed.data;
}

/**
 * The operations to evaluate: the decoded ones when the envelope agrees with them (so an agreeing
 * envelope changes nothing), the envelope's when none are decoded, else a 400 at `path`.
 */
export function agreedOperations(
  envelope: EnvelopeTransaction,
  decoded: readonly StellarOperation[],
  network: string | null,
  path: string,
  operationsPath: string,
): Result<StellarOperation[], AppError> {
  if (decoded.length === 0) return ok(envelope.operations);
  if (decoded.length !== envelope.operations.length) {
    return err(invalidAt(path, `holds ${envelope.operations.length} operations, ${operationsPath} ${decoded.length}`));
  }
  for (const [index, op] of envelope.operations.entries()) {
    const field = operationDifference(decoded[index]!, op, network);
    if (field !== null) return err(invalidAt(path, `operation ${index} disagrees with ${at(operationsPath, index)} (${field})`));
  }
  return ok([...decoded]);
}

/** The first field in which a decoded operation differs from the signed one (the envelope's, or its raw XDR), or null. */
export function operationDifference(decoded: StellarOperation, signed: StellarOperation, network: string | null): string | null {
  if (decoded.kind !== signed.kind || (decoded.kind === "other" && signed.kind === "other" && decoded.name !== signed.name)) return "type";
  if (!sameEndpoint(decoded.source, signed.source)) return "source account";
  if (decoded.kind === "other" || signed.kind === "other") {
    const created = decoded.kind === "other" ? decoded.created : undefined;
    const signedCreated = signed.kind === "other" ? signed.created : undefined;
    // A createAccount's balance is compared when the decoded body states it (transfers[] is matched against it).
    if (created === undefined) return null;
    if (signedCreated === undefined || !sameEndpoint(created.destination, signedCreated.destination)) return "destination";
    return sameRaw(created.rawAmount, signedCreated.rawAmount) ? null : "amount";
  }
  if (!sameEndpoint(decoded.destination, signed.destination)) return "destination";
  const asset = (op: typeof decoded) => (op.kind === "payment" ? assetIdentity(op.asset, "stellarClassic", network) : assetIdentity(op.contract, "sep41", network));
  if (asset(decoded) !== asset(signed)) return "asset";
  return sameRaw(decoded.rawAmount, signed.rawAmount) ? null : "amount";
}

const sameRaw = (a: string, b: string): boolean => new Big(a).eq(new Big(b));
