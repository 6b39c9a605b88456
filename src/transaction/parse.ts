/**
 * parseTransaction: a webhook body in any of the three accepted shapes (CONTRACT.md section 1)
 * to the Transaction countersign evaluates. Never throws; a body that is not a transaction is
 * NOT_A_TRANSACTION, a transaction with malformed transfers or amounts is INVALID_TRANSACTION.
 */
import { AppError, err, ok, type Result } from "../errors.js";
import { fromApi } from "./api-shape.js";
import { qualifyWallet } from "./endpoint.js";
import { check, invalidAt } from "./issues.js";
import { fromDetails } from "./reference-shape.js";
import { commonFields, type CommonFields } from "./schemas.js";
import type { ShapeContext, ShapeResult } from "./shape.js";
import { at, isRecord } from "./transfer.js";
import type { Transaction } from "./types.js";

const TRANSACTION_NAME = /^vaults\/([A-Za-z0-9_-]{1,128})\/transactions\/([A-Za-z0-9_-]{1,128})$/;

export function parseTransaction(body: unknown): Result<Transaction, AppError> {
  const located = locate(body);
  if (!located.ok) return located;
  const { snapshot, path } = located.value;
  const name = typeof snapshot.name === "string" ? TRANSACTION_NAME.exec(snapshot.name) : null;
  if (name?.[1] === undefined || name[2] === undefined) {
    return err(notATransaction(`${at(path, "name")}: must be vaults/{vault_id}/transactions/{transaction_id}`));
  }
  const vault = `vaults/${name[1]}`;
  const common = check(commonFields, snapshot, path);
  if (!common.ok) return common;
  const sourceWallet = requestSourceWallet(common.value, vault, path);
  if (!sourceWallet.ok) return sourceWallet;
  const ctx: ShapeContext = { vault, network: common.value.network ?? null, sourceWallet: sourceWallet.value, path };
  const shape = fromShape(snapshot, common.value, ctx);
  if (!shape.ok) return shape;
  return ok(assemble(snapshot, name[0], vault, name[2], common.value, shape.value));
}

/** The transaction object itself, unwrapped from `{"transaction": {...}}` when so delivered. */
function locate(body: unknown): Result<{ snapshot: Record<string, unknown>; path: string }, AppError> {
  if (!isRecord(body)) return err(notATransaction("the body must be a JSON object"));
  if (Object.hasOwn(body, "name")) {
    // A named body that also wraps another transaction: which one is to be signed is unclear.
    if (body.transaction != null) return err(notATransaction("the body has both name and transaction"));
    return ok({ snapshot: body, path: "" });
  }
  if (isRecord(body.transaction)) return ok({ snapshot: body.transaction, path: "transaction" });
  return err(notATransaction("name: must be vaults/{vault_id}/transactions/{transaction_id}"));
}

function requestSourceWallet(common: CommonFields, vault: string, path: string): Result<string | null, AppError> {
  const given = common.request?.sourceWallet;
  if (given == null) return ok(null);
  const wallet = qualifyWallet(given, vault);
  return wallet === null
    ? err(invalidAt(at(at(path, "request"), "sourceWallet"), "must be a wallet resource name"))
    : ok(wallet);
}

function fromShape(snapshot: Record<string, unknown>, common: CommonFields, ctx: ShapeContext): Result<ShapeResult, AppError> {
  const transfers = common.transfers ?? [];
  if (common.details == null) return fromApi(snapshot, common.subType ?? null, transfers, ctx);
  // Both shapes at once: the transfers evaluated and the ones signed could differ.
  if (transfers.length > 0) return err(invalidAt(at(ctx.path, "transfers"), "must not be given beside details"));
  return fromDetails(common.details, ctx);
}

function assemble(
  snapshot: Record<string, unknown>,
  name: string,
  vault: string,
  id: string,
  common: CommonFields,
  shape: ShapeResult,
): Transaction {
  return {
    name,
    vault,
    id,
    kind: shape.kind,
    type: common.type ?? null,
    subType: common.subType ?? null,
    state: common.state ?? null,
    network: common.network ?? shape.network,
    note: common.note ?? null,
    externalId: common.externalId ?? common.request?.externalId ?? null,
    requestId: common.requestId ?? null,
    initiator: common.request?.initiator ?? null,
    designatedSigners: [...(common.designatedSigners ?? [])],
    transfers: shape.transfers,
    snapshot,
  };
}

const notATransaction = (message: string): AppError => new AppError("NOT_A_TRANSACTION", message);
