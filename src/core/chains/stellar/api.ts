/**
 * Shape 2 `stellarTransaction`: what it moves comes from its decoded operations (the same model as
 * shape 1, stellar-operations.ts), and `transfers[]` must agree with them: every listed transfer is
 * one decoded payment (or a createAccount's starting balance) and every decoded payment is listed.
 * A disagreement is refused with 400 — never resolved toward the milder reading. An operation the
 * platform did not decode is the payload `stellar:unknown`. When the body carries the signed envelope
 * (`rawXdrEnvelope`), the decoded operations must agree with it, or are read from it when none are
 * given (stellar-envelope.ts).
 */
import { err, ok, type AppError, type Result } from "../../errors.js";
import { transferMovesRaw } from "../../transaction/amounts.js";
import { assetIdentity, networkId } from "../assets.js";
import { endpointAt } from "../../transaction/endpoint-at.js";
import { classicAssetAt, stellarAssetAt } from "./assets.js";
import { check, invalidAt } from "../../transaction/issues.js";
import { apiSep41Payment, apiStellarPayment, apiStellarTransaction } from "../../transaction/schemas.js";
import type { ShapeContext, ShapeResult } from "../../transaction/shape.js";
import { sourceAt } from "../../transaction/sources.js";
import { agreedOperations, operationDifference, readEnvelope } from "./envelope.js";
import { sameEndpoint, stellarMoves, type StellarOperation } from "./operations.js";
import { operationReadings } from "./xdr.js";
import { at, presentKeys } from "../../transaction/transfer.js";
import type { Endpoint, Transfer } from "../../transaction/types.js";
import type { OtherFamilies } from "../family.js";

export function fromApiStellar(input: unknown, listed: readonly Transfer[], ctx: ShapeContext, others: OtherFamilies): Result<ShapeResult, AppError> {
  const path = at(ctx.path, "stellarTransaction");
  const parsed = check(apiStellarTransaction, input, path);
  if (!parsed.ok) return parsed;
  const stated = parsed.value.sourceAccountAddress?.value ?? null;
  const raw = parsed.value.rawXdrEnvelope ?? null;
  const statements = { source: stated, fee: parsed.value.fee, memo: parsed.value.memo };
  const envelope = raw === null ? null : readEnvelope(raw, statements, at(path, "rawXdrEnvelope"), ctx);
  if (envelope !== null && !envelope.ok) return envelope;
  const sponsor = stated ?? envelope?.value.source ?? null;
  const network = ctx.network ?? listed.map((t) => t.network).find((n) => n !== null) ?? null;
  // A Stellar asset is named on its network (`assets/asset.stellar-mainnet.USDC-G…`): read without
  // one, the same USDC would be another asset, in another velocity group, than where a body names it.
  if (network === null) return err(invalidAt(at(ctx.path, "network"), "is required for a Stellar transaction: its assets are named on their network"));
  // Read from transfers[] when the body names none: a Stellar transaction on another network
  // describes two kinds at once (kind.ts checks a top-level network; stellar-details.ts shape 1's).
  if (!networkId(network).startsWith("stellar-")) return err(invalidAt(at(ctx.path, "network"), "is not a Stellar network, and a Stellar transaction moves on one"));
  const stellarNetwork = network === null ? null : `networks/${networkId(network)}`;
  const decoded: StellarOperation[] = [];
  for (const [index, op] of (parsed.value.operations ?? []).entries()) {
    const opPath = at(at(path, "operations"), index);
    // An operation without its own source acts for the transaction's source account.
    const source = sourceAt(op.sourceAccountAddress?.value ?? sponsor, at(opPath, "sourceAccountAddress"), ctx);
    if (!source.ok) return source;
    const operation = fromDecoded(op.decodedBody ?? {}, source.value, at(opPath, "decodedBody"), ctx);
    if (!operation.ok) return operation;
    if (op.decodedBody != null && op.rawBody != null && op.rawBody !== "") {
      const signed = rawAgrees(op.rawBody, operation.value, op.sourceAccountAddress?.value ?? sponsor, stellarNetwork, at(opPath, "rawBody"), ctx);
      if (!signed.ok) return signed;
    }
    decoded.push(operation.value);
  }
  const operations = envelope === null ? ok(decoded) : agreedOperations(envelope.value, decoded, stellarNetwork, at(path, "rawXdrEnvelope"), at(path, "operations"));
  if (!operations.ok) return operations;
  const moves = stellarMoves(operations.value, stellarNetwork, sponsor);
  const agreed = reconcile(listed, moves.transfers, accountsCreated(operations.value, ctx.network), network, path, others);
  if (!agreed.ok) return agreed;
  const envelopeMemo = envelope === null ? {} : { envelopeMemo: envelope.value.memo, envelopeFee: envelope.value.fee };
  return ok({ kind: "stellarTransaction", transfers: moves.transfers, payloads: moves.payloads, network: null, ...envelopeMemo });
}

/**
 * An operation's raw XDR says what its decoded body says: the bytes are what gets signed, and a
 * decoded payment beside an account merge in `rawBody` would otherwise be signed as the payment.
 */
function rawAgrees(raw: string, decoded: StellarOperation, source: string | null, network: string | null, path: string, ctx: ShapeContext): Result<void, AppError> {
  const readings = operationReadings(raw, source, path, ctx);
  if (!readings.ok) return readings;
  if (readings.value.length === 0) return err(invalidAt(path, "must be a base64 XDR Stellar operation"));
  for (const signed of readings.value) {
    const field = operationDifference(decoded, signed, network);
    if (field !== null) return err(invalidAt(path, `disagrees with the decoded body (${field})`));
  }
  return ok(undefined);
}

function fromDecoded(body: Record<string, unknown>, source: Endpoint, path: string, ctx: ShapeContext): Result<StellarOperation, AppError> {
  const keys = presentKeys(body);
  const key = keys[0];
  if (keys.length > 1) return err(invalidAt(path, "must hold exactly one operation"));
  if (key === undefined) return ok({ kind: "other", name: "unknown", source });
  if (key === "payment") {
    const p = check(apiStellarPayment, body[key], at(path, key));
    if (!p.ok) return p;
    const destination = endpointAt(p.value.destinationAddress.value, at(at(path, key), "destinationAddress"), ctx);
    if (!destination.ok) return destination;
    const asset = classicAssetAt(p.value.asset, at(at(path, key), "asset"));
    if (!asset.ok) return asset;
    return ok({ kind: "payment", source, destination: destination.value, asset: asset.value, rawAmount: p.value.amount });
  }
  if (key === "sep41Payment") return fromSep41(body[key], source, at(path, key), ctx);
  if (key === "createAccount") return ok({ kind: "other", name: key, source, ...createdAccount(body[key], ctx) });
  return ok({ kind: "other", name: key, source });
}

function fromSep41(input: unknown, source: Endpoint, path: string, ctx: ShapeContext): Result<StellarOperation, AppError> {
  const p = check(apiSep41Payment, input, path);
  if (!p.ok) return p;
  const s = p.value;
  // `transfer_from`: the operation's source spends someone else's allowance — not a plain payment.
  if (s.spenderAddress?.value != null) return ok({ kind: "other", name: "sep41TransferFrom", source });
  if (s.sourceAddress?.value != null && s.sourceAddress.value !== source.value) {
    return err(invalidAt(at(at(path, "sourceAddress"), "value"), "must equal the operation's source account"));
  }
  const destination = endpointAt(s.destinationAddress.value, at(at(path, "destinationAddress"), "value"), ctx);
  if (!destination.ok) return destination;
  const contract = stellarAssetAt(s.contractAddress, at(path, "contractAddress"));
  if (!contract.ok) return contract;
  return ok({ kind: "sep41Payment", source, destination: destination.value, contract: contract.value, rawAmount: s.rawAmount });
}

/** The XLM a createAccount sends, when well-formed (it is a payload either way). */
function createdAccount(input: unknown, ctx: ShapeContext): Pick<Extract<StellarOperation, { kind: "other" }>, "created"> {
  const p = check(apiStellarPayment.pick({ destinationAddress: true }), input, "");
  const balance = (input as { startingBalance?: unknown } | null)?.startingBalance;
  if (!p.ok || typeof balance !== "string" || !/^[0-9]{1,78}$/.test(balance)) return {};
  const destination = endpointAt(p.value.destinationAddress.value, "", ctx);
  return destination.ok ? { created: { destination: destination.value, rawAmount: balance } } : {};
}

/** Each createAccount's starting balance as a transfer, which `transfers[]` may list (it stays a payload). */
function accountsCreated(operations: readonly StellarOperation[], network: string | null): Transfer[] {
  return operations.flatMap((op) => {
    if (op.kind !== "other" || op.created === undefined) return [];
    const payment: StellarOperation = { kind: "payment", source: op.source, asset: "native", ...op.created };
    return stellarMoves([payment], network, null).transfers;
  });
}

/** Each listed transfer pairs with one decoded one; every decoded payment must be listed (unless nothing is). */
function reconcile(
  listed: readonly Transfer[],
  decoded: readonly Transfer[],
  created: readonly Transfer[],
  network: string | null,
  path: string,
  others: OtherFamilies,
): Result<void, AppError> {
  if (listed.length === 0) return ok(undefined);
  const unmatchedPayments = new Set(decoded);
  const unmatchedCreated = new Set(created);
  for (const t of listed) {
    const payment = [...unmatchedPayments].find((d) => same(t, d, network, others));
    if (payment) {
      unmatchedPayments.delete(payment);
      continue;
    }
    const account = [...unmatchedCreated].find((d) => same(t, d, network, others));
    if (account) {
      unmatchedCreated.delete(account);
      continue;
    }
    return err(invalidAt(at(path, "operations"), `disagree with transfers[${t.index}]`));
  }
  if (unmatchedPayments.size > 0) return err(invalidAt(at(path, "operations"), "move value that transfers[] does not list"));
  return ok(undefined);
}

/** The same movement: destination, asset identity, amount, and the source when the listing names an address. */
function same(listed: Transfer, decoded: Transfer, network: string | null, others: OtherFamilies): boolean {
  const identity = (t: Transfer) => assetIdentity(t.asset, t.assetStandard === "other" ? decoded.assetStandard : t.assetStandard, t.network ?? network);
  if (identity(listed) !== identity(decoded)) return false;
  if (!sameEndpoint(listed.destination, decoded.destination)) return false;
  if (listed.source.kind === "address" && !sameEndpoint(listed.source, decoded.source)) return false;
  return decoded.rawAmount !== null && transferMovesRaw({ ...listed, assetStandard: decoded.assetStandard }, decoded.rawAmount, others.nativeDecimalsOf);
}
