/** What each body shape contributes to a Transaction beyond the common fields. */
import type { Memo, TransactionKind, Transfer } from "./types.js";

export interface ShapeContext {
  /** `vaults/{v}` from the transaction name. */
  vault: string;
  /** The transaction's `network` as received, or null. */
  network: string | null;
  /** `request.sourceWallet` as a full wallet name, or null. */
  sourceWallet: string | null;
  /** JSON path of the transaction object in the body: "" or "transaction". */
  path: string;
}

export interface ShapeResult {
  /** The kind the shape describes, before payloads (any payload makes it `unknown`). */
  kind: TransactionKind;
  transfers: Transfer[];
  /** Payloads found while reading the transfers (a Stellar `changeTrust` operation, say). */
  payloads: string[];
  /** A network the shape itself names (a Stellar transaction's), for `tx.network` when none is given. */
  network: string | null;
  /** The memo of the signed envelope, when the shape decoded one (null: the envelope has none). */
  envelopeMemo?: Memo | null;
  /** The most the signed envelope pays in fees, in stroops, when the shape decoded one. */
  envelopeFee?: string;
}
