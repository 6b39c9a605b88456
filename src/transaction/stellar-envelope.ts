/**
 * The envelope is the truth. A Stellar transaction body carries the decoded operations countersign
 * reads and the raw envelope (`rawXdrEnvelope`) the co-signer actually signs; were the envelope
 * not read, one holding a second payment, a larger amount, another destination or a setOptions
 * would be signed as the milder decoded list says. So the envelope is decoded (stellar-xdr.ts) and
 * must agree with the decoded operations one for one — count, order, type, source account,
 * destination, asset, amount — and with the transaction-level source the body states; any
 * difference is refused with 400. With no decoded operations, the envelope's are the operations.
 */
import Big from "big.js";
import { err, ok, type AppError, type Result } from "../errors.js";
import { sameAddress } from "../facts/addresses.js";
import { assetIdentity } from "./assets.js";
import { invalidAt } from "./issues.js";
import type { ShapeContext } from "./shape.js";
import { sameEndpoint, type StellarOperation } from "./stellar-operations.js";
import { envelopeTransaction, type EnvelopeTransaction } from "./stellar-xdr.js";
import { at } from "./transfer.js";

/** The envelope at `path` (`….rawXdrEnvelope`), decoded; its source must be the one the body states, if any. */
export function readEnvelope(base64: string, statedSource: string | null, path: string, ctx: ShapeContext): Result<EnvelopeTransaction, AppError> {
  const envelope = envelopeTransaction(base64, path, ctx);
  if (!envelope.ok) return envelope;
  if (statedSource !== null && !sameAddress(statedSource, envelope.value.source)) {
    return err(invalidAt(path, "its source account disagrees with the transaction's source account"));
  }
  return envelope;
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
    const field = difference(decoded[index]!, op, network);
    if (field !== null) return err(invalidAt(path, `operation ${index} disagrees with ${at(operationsPath, index)} (${field})`));
  }
  return ok([...decoded]);
}

/** The first field in which a decoded operation differs from the envelope's, or null. */
function difference(decoded: StellarOperation, signed: StellarOperation, network: string | null): string | null {
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
  const asset = (op: typeof decoded) =>
    op.kind === "payment" ? assetIdentity(op.asset, "stellarClassic", network) : assetIdentity(op.contract, "sep41", network);
  if (asset(decoded) !== asset(signed as typeof decoded)) return "asset";
  return sameRaw(decoded.rawAmount, signed.rawAmount) ? null : "amount";
}

const sameRaw = (a: string, b: string): boolean => new Big(a).eq(new Big(b));
