/**
 * A transfer's source is what the transfer itself says. `request.sourceWallet` (shape 2) is a claim
 * about it: it stands for a source the API leaves out (BTC transfers), and it is never allowed to
 * override a source that names its own wallet — a contradiction between the two is refused. For a
 * raw source address the claim is kept beside it (Transaction.sourceWallet); the facts builder
 * prefers the wallet countersign's own synced copy knows for that address (src/facts).
 * A transaction spends from its own vault's wallets only: a source or sponsor wallet of another
 * vault is refused.
 */
import { err, ok, type AppError, type Result } from "../errors.js";
import { endpointAt, type AccountFamily } from "./endpoint-at.js";
import { qualifyWallet, vaultOf, walletEndpoint } from "./endpoint.js";
import { invalidAt } from "./issues.js";
import type { ShapeContext } from "./shape.js";
import type { Endpoint } from "./types.js";

/** `family`: the accounts of the transfer's network, whose raw source must be spelt as they are (endpoint-at.ts). */
export function sourceAt(value: string | null, path: string, ctx: ShapeContext, family: AccountFamily = null): Result<Endpoint, AppError> {
  if (value === null) {
    return ctx.sourceWallet === null ? err(invalidAt(path, "is required when the transaction has no request.sourceWallet")) : ok(walletEndpoint(ctx.sourceWallet));
  }
  const endpoint = endpointAt(value, path, ctx, family);
  if (!endpoint.ok || endpoint.value.wallet === null) return endpoint;
  const wallet = endpoint.value.wallet;
  if (vaultOf(wallet) !== ctx.vault) return err(invalidAt(path, "must be a wallet of the transaction's vault"));
  if (ctx.sourceWallet !== null && wallet !== ctx.sourceWallet) {
    return err(invalidAt(path, "contradicts request.sourceWallet"));
  }
  return endpoint;
}

/** A sponsor (gas wallet) is a wallet of the transaction's vault, full or short name. */
export function sponsorAt(value: string | null, path: string, ctx: ShapeContext): Result<string | null, AppError> {
  if (value === null) return ok(null);
  const wallet = qualifyWallet(value, ctx.vault);
  if (wallet === null || vaultOf(wallet) !== ctx.vault) return err(invalidAt(path, "must be a wallet of the transaction's vault"));
  return ok(wallet);
}
