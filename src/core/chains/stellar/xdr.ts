/**
 * A Stellar transaction envelope (`rawXdrEnvelope`, base64 XDR) read into the operation model the
 * decoded operations use (stellar-operations.ts). The envelope is what the co-signer signs, so it
 * is read with the network's own XDR definitions (@stellar/stellar-base), never guessed at:
 * v0 and v1 envelopes, and a fee bump's inner transaction (its fee source only pays the fee).
 *
 * Modelled like the platform's decoded bodies: `payment`, `createAccount` (its starting balance),
 * `changeTrust`, and a Soroban token call — `transfer` (sep41Payment), `transfer_from`
 * (sep41TransferFrom), `approve` (sep41TokenApproval) — whose authorisations cover that one call
 * and nothing beneath it. Every other operation, or a token call authorising more, is `unknown`.
 */
import { Address, Asset, encodeMuxedAccountToAddress, scValToNative, StrKey, xdr } from "@stellar/stellar-base";
import { err, ok, type AppError, type Result } from "../../errors.js";
import { endpointAt } from "../../transaction/endpoint-at.js";
import { invalidAt } from "../../transaction/issues.js";
import type { ShapeContext } from "../../transaction/shape.js";
import { sourceAt } from "../../transaction/sources.js";
import type { StellarOperation } from "./operations.js";
import type { Endpoint } from "../../transaction/types.js";

export interface EnvelopeTransaction {
  /** The transaction-level source account (a fee bump's inner transaction's). */
  source: string;
  /** The most the fee payer pays, in stroops (a fee bump's outer fee). */
  fee: string;
  /** As the API writes a memo: `type` TEXT, ID, HASH or RETURN (hashes as 0x-hex), or null for none. */
  memo: { type: string; data: string } | null;
  operations: StellarOperation[];
}

interface Inner {
  source: string;
  fee: string;
  memo: xdr.Memo;
  operations: xdr.Operation[];
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function envelopeTransaction(base64: string, path: string, ctx: ShapeContext): Result<EnvelopeTransaction, AppError> {
  const envelope = decodeEnvelope(base64);
  if (envelope === null) return err(invalidAt(path, "must be a base64 XDR Stellar transaction envelope"));
  const tx = innerTransaction(envelope);
  if (tx === null) return err(invalidAt(path, "must be a Stellar transaction envelope (v0, v1 or fee bump)"));
  // The network rejects a transaction without operations; read as one, it would move nothing the policy sees.
  if (tx.operations.length === 0) return err(invalidAt(path, "must hold at least one operation"));
  const operations = readAll(
    tx.operations.map((op) => [op.body(), operationSource(op, tx.source)]),
    path,
    ctx,
  );
  if (!operations.ok) return operations;
  const memo = memoOf(tx.memo);
  if (memo === undefined) return err(invalidAt(path, "its memo is text that is not UTF-8 without NUL, which the policy could not be shown and the audit row could not hold"));
  return ok({ source: tx.source, fee: tx.fee, memo, operations: operations.value });
}

/**
 * One operation's raw XDR (`operations[].rawBody`), as an `Operation` (its optional source, then its
 * body) or as an `OperationBody` alone: every reading the bytes admit, each read as the envelope's
 * operations are. An empty list: the bytes are neither.
 */
export function operationReadings(base64: string, source: string | null, path: string, ctx: ShapeContext): Result<StellarOperation[], AppError> {
  const candidates: [xdr.OperationBody, string | null][] = [];
  const op = decodeBase64Xdr(base64, (b) => xdr.Operation.fromXDR(b, "base64"));
  if (op !== null) candidates.push([op.body(), operationSource(op, source)]);
  const body = decodeBase64Xdr(base64, (b) => xdr.OperationBody.fromXDR(b, "base64"));
  if (body !== null) candidates.push([body, source]);
  return readAll(candidates, path, ctx);
}

/** An operation's own source account, else the transaction's (`fallback`). */
const operationSource = (op: xdr.Operation, fallback: string | null): string | null => (op.sourceAccount() ? accountAddress(op.sourceAccount() as xdr.MuxedAccount) : fallback);

/** Operation bodies, each with the account it acts for, read into the operation model; the first refusal stops. */
function readAll(bodies: [xdr.OperationBody, string | null][], path: string, ctx: ShapeContext): Result<StellarOperation[], AppError> {
  const operations: StellarOperation[] = [];
  for (const [body, source] of bodies) {
    const from = sourceAt(source, path, ctx);
    if (!from.ok) return from;
    const read = readOperation(body, from.value, path, ctx);
    if (!read.ok) return read;
    operations.push(read.value);
  }
  return ok(operations);
}

function decodeBase64Xdr<T>(base64: string, decode: (base64: string) => T): T | null {
  // Buffer's base64 decoder skips characters it does not know: only canonical base64 is read.
  if (base64.length === 0 || !BASE64.test(base64)) return null;
  try {
    return decode(base64);
  } catch {
    return null;
  }
}

const decodeEnvelope = (base64: string): xdr.TransactionEnvelope | null => decodeBase64Xdr(base64, (b) => xdr.TransactionEnvelope.fromXDR(b, "base64"));

function innerTransaction(envelope: xdr.TransactionEnvelope): Inner | null {
  switch (envelope.switch()) {
    case xdr.EnvelopeType.envelopeTypeTxV0(): {
      const tx = envelope.v0().tx();
      return { source: StrKey.encodeEd25519PublicKey(tx.sourceAccountEd25519()), fee: String(tx.fee()), memo: tx.memo(), operations: tx.operations() };
    }
    case xdr.EnvelopeType.envelopeTypeTx():
      return v1Transaction(envelope.v1().tx(), String(envelope.v1().tx().fee()));
    case xdr.EnvelopeType.envelopeTypeTxFeeBump(): {
      const bump = envelope.feeBump().tx();
      const inner = bump.innerTx();
      // The inner transaction's own fee is not charged: the fee bump's is.
      return inner.switch() === xdr.EnvelopeType.envelopeTypeTx() ? v1Transaction(inner.v1().tx(), bump.fee().toString()) : null;
    }
    default:
      return null;
  }
}

const v1Transaction = (tx: xdr.Transaction, fee: string): Inner => ({
  source: accountAddress(tx.sourceAccount()),
  fee,
  memo: tx.memo(),
  operations: tx.operations(),
});

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The memo as the API writes it; undefined for a text memo whose bytes are not UTF-8, or hold a
 * NUL: read leniently, two byte strings would be one fact (U+FFFD), and a NUL cannot be stored.
 */
function memoOf(memo: xdr.Memo): EnvelopeTransaction["memo"] | undefined {
  switch (memo.switch()) {
    case xdr.MemoType.memoText(): {
      const bytes = Buffer.from(memo.text());
      if (bytes.includes(0)) return undefined;
      try {
        return { type: "TEXT", data: STRICT_UTF8.decode(bytes) };
      } catch {
        return undefined;
      }
    }
    case xdr.MemoType.memoId():
      return { type: "ID", data: memo.id().toString() };
    case xdr.MemoType.memoHash():
      return { type: "HASH", data: `0x${memo.hash().toString("hex")}` };
    case xdr.MemoType.memoReturn():
      return { type: "RETURN", data: `0x${memo.retHash().toString("hex")}` };
    default:
      return null;
  }
}

function readOperation(body: xdr.OperationBody, source: Endpoint, path: string, ctx: ShapeContext): Result<StellarOperation, AppError> {
  const type = body.switch();
  if (type === xdr.OperationType.payment()) {
    const p = body.paymentOp();
    const destination = endpointAt(accountAddress(p.destination()), path, ctx);
    if (!destination.ok) return destination;
    return ok({ kind: "payment", source, destination: destination.value, asset: classicAsset(p.asset()), rawAmount: p.amount().toString() });
  }
  if (type === xdr.OperationType.createAccount()) {
    const c = body.createAccountOp();
    const destination = endpointAt(StrKey.encodeEd25519PublicKey(c.destination().ed25519()), path, ctx);
    if (!destination.ok) return destination;
    return ok({ kind: "other", name: "createAccount", source, created: { destination: destination.value, rawAmount: c.startingBalance().toString() } });
  }
  if (type === xdr.OperationType.changeTrust()) return ok({ kind: "other", name: "changeTrust", source });
  if (type === xdr.OperationType.invokeHostFunction()) return ok(tokenCall(body.invokeHostFunctionOp(), source, ctx));
  return ok({ kind: "other", name: "unknown", source });
}

/** `G…`, or `M…` for a muxed account: a muxed account is not read as its base account. */
const accountAddress = (account: xdr.MuxedAccount): string => encodeMuxedAccountToAddress(account, true);

/** `native` or `CODE-ISSUER`, as the operations write a classic asset. */
function classicAsset(asset: xdr.Asset): string {
  const a = Asset.fromOperation(asset);
  return a.isNative() ? "native" : `${a.getCode()}-${a.getIssuer()}`;
}

const TOKEN_CALLS: Record<string, string> = { transfer: "sep41Payment", transfer_from: "sep41TransferFrom", approve: "sep41TokenApproval" };

function tokenCall(op: xdr.InvokeHostFunctionOp, source: Endpoint, ctx: ShapeContext): StellarOperation {
  const unknown: StellarOperation = { kind: "other", name: "unknown", source };
  const fn = op.hostFunction();
  if (fn.switch() !== xdr.HostFunctionType.hostFunctionTypeInvokeContract()) return unknown;
  const call = fn.invokeContract();
  const name = TOKEN_CALLS[call.functionName().toString()];
  if (name === undefined || !authorisesOnly(op.auth(), call)) return unknown;
  if (name !== "sep41Payment") return { kind: "other", name, source };
  try {
    const args = call.args();
    if (args.length !== 3) return unknown;
    const [from, to, amount] = [Address.fromScVal(args[0]!).toString(), Address.fromScVal(args[1]!).toString(), scValToNative(args[2]!) as unknown];
    if (typeof amount !== "bigint" || amount < 0n || args[2]!.switch() !== xdr.ScValType.scvI128()) return unknown;
    const sender = endpointAt(from, "", ctx);
    const destination = endpointAt(to, "", ctx);
    if (!sender.ok || !destination.ok) return unknown;
    const contract = Address.fromScAddress(call.contractAddress()).toString();
    // Whose funds move is `from`; an operation source other than `from` is compared (and refused) as such.
    return { kind: "sep41Payment", source: sender.value, destination: destination.value, contract, rawAmount: amount.toString() };
  } catch {
    return unknown;
  }
}

/** Every authorisation entry is for exactly this call, with nothing invoked beneath it. */
function authorisesOnly(entries: readonly xdr.SorobanAuthorizationEntry[], call: xdr.InvokeContractArgs): boolean {
  const callXdr = call.toXDR("base64");
  return entries.every((entry) => {
    const root = entry.rootInvocation();
    const fn = root.function();
    return (
      root.subInvocations().length === 0 &&
      fn.switch() === xdr.SorobanAuthorizedFunctionType.sorobanAuthorizedFunctionTypeContractFn() &&
      fn.contractFn().toXDR("base64") === callXdr
    );
  });
}
