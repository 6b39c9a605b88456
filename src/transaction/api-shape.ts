/**
 * Shape 2: the transaction as the custody API returns it from GetTransaction. The kind comes from
 * `subType` and the chain-specific objects; the transfers always come from `transfers[]`. Hints
 * such as `infoRef` and `referencedAddressesInfo` are never read (CONTRACT.md section 1).
 */
import { err, ok, type AppError, type Result } from "../errors.js";
import { parseEndpoint, walletEndpoint } from "./endpoint.js";
import { check, invalidAt } from "./issues.js";
import { apiStellarTransaction, apiTransfer } from "./schemas.js";
import type { ShapeContext, ShapeResult } from "./shape.js";
import { at, isRecord, makeTransfer } from "./transfer.js";
import type { Endpoint, TransactionKind, Transfer } from "./types.js";

const ASSET_TRANSFER_SUBTYPES: ReadonlySet<string> = new Set([
  "NATIVE_TRANSFER",
  "TOKEN_TRANSFER",
  "NATIVE_MULTI_TRANSFER",
  "BATCH_TRANSFER",
  "BTC_TRANSFER",
]);

export function fromApi(
  tx: Record<string, unknown>,
  subType: string | null,
  transfersIn: readonly unknown[],
  ctx: ShapeContext,
): Result<ShapeResult, AppError> {
  const kind = apiKind(tx, subType, ctx.path);
  if (!kind.ok) return kind;
  const sponsor = stellarSponsor(tx, ctx.path);
  if (!sponsor.ok) return sponsor;
  const transfers: Transfer[] = [];
  for (const [index, input] of transfersIn.entries()) {
    const transfer = fromApiTransfer(index, input, sponsor.value, ctx);
    if (!transfer.ok) return transfer;
    transfers.push(transfer.value);
  }
  // A delegation moves no value. One that lists transfers is not what it claims: its transfers
  // are kept and it is evaluated as `unknown`, never signed as a bare delegation.
  const finalKind = kind.value === "evmAccountDelegation" && transfers.length > 0 ? "unknown" : kind.value;
  return ok({ kind: finalKind, transfers, network: null });
}

function apiKind(tx: Record<string, unknown>, subType: string | null, path: string): Result<TransactionKind, AppError> {
  for (const key of ["stellarTransaction", "evmAccountDelegation"] as const) {
    if (tx[key] != null && !isRecord(tx[key])) return err(invalidAt(at(path, key), "must be an object"));
  }
  const stellar = isRecord(tx.stellarTransaction);
  const transfer = subType !== null && ASSET_TRANSFER_SUBTYPES.has(subType);
  const delegation = subType === "EVM_ACCOUNT_DELEGATION" || isRecord(tx.evmAccountDelegation);
  // A delegation beside a transfer or a Stellar transaction must not pass as the milder of the two
  // (a Stellar payment may legitimately carry a transfer subType, so that pair is fine).
  if (delegation && (stellar || transfer)) {
    return err(invalidAt(path, "describes both an EVM account delegation and another kind of transaction"));
  }
  if (stellar) return ok("stellarTransaction");
  if (transfer) return ok("assetTransfer");
  if (delegation) return ok("evmAccountDelegation");
  return ok("unknown");
}

/** A Stellar transaction's own source account pays the fee: it is the sponsor of every transfer. */
function stellarSponsor(tx: Record<string, unknown>, path: string): Result<string | null, AppError> {
  if (!isRecord(tx.stellarTransaction)) return ok(null);
  const parsed = check(apiStellarTransaction, tx.stellarTransaction, at(path, "stellarTransaction"));
  if (!parsed.ok) return parsed;
  return ok(parsed.value.sourceAccountAddress?.value ?? null);
}

function fromApiTransfer(
  index: number,
  input: unknown,
  sponsor: string | null,
  ctx: ShapeContext,
): Result<Transfer, AppError> {
  const path = at(at(ctx.path, "transfers"), index);
  const parsed = check(apiTransfer, input, path);
  if (!parsed.ok) return parsed;
  const t = parsed.value;
  const source = apiSource(t.sourceAddress?.value ?? null, ctx);
  if (source === null) {
    return err(invalidAt(at(path, "sourceAddress"), "is required when the transaction has no request.sourceWallet"));
  }
  return ok(
    makeTransfer(index, {
      asset: t.asset,
      amount: t.amount ?? null,
      rawAmount: null,
      source,
      destination: parseEndpoint(t.destinationAddress.value),
      sponsor,
      fallbackNetwork: ctx.network,
    }),
  );
}

/**
 * The source as written, with the transaction's own `request.sourceWallet` as its wallet, so that a
 * wallet's transfers group together whichever shape they arrive in. BTC transfers leave the source
 * address out: the wallet then stands for it.
 */
function apiSource(value: string | null, ctx: ShapeContext): Endpoint | null {
  if (value === null) return ctx.sourceWallet === null ? null : walletEndpoint(ctx.sourceWallet);
  const endpoint = parseEndpoint(value);
  return ctx.sourceWallet === null ? endpoint : { ...endpoint, wallet: ctx.sourceWallet };
}
