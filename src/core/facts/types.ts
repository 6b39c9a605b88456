/**
 * The facts document a policy rule reads with `var` (docs/interface.md section 4). One document per
 * evaluation: per transfer, or once with `transfer: null` for a transaction without transfers.
 * Every value is JSON (strings for amounts) so the document is stored verbatim in the audit row
 * and evaluation can be reproduced from it.
 */
import type { ReviewFacts } from "../review/types.js";
import type { AssetStandard, Authorization, EndpointForm, Fee, Memo, TokenAllowance, Transaction } from "../transaction/types.js";

/** The transaction's own fields a rule reads as they are in the model; the rest are facts of their own. */
type TransactionFields = "name" | "vault" | "id" | "kind" | "type" | "subType" | "state" | "network" | "note" | "externalId" | "requestId" | "initiator" | "designatedSigners";

export interface TxFacts extends Pick<Transaction, TransactionFields> {
  transferCount: number;
  /** What the transaction carries beside its transfers that can move value or grant authority, sorted. */
  payloads: string[];
  tokenAllowances: TokenAllowance[];
  authorizations: Authorization[];
  /** The memo (Stellar, TON) as `{type, data}`, or null (src/core/transaction/memo.ts). */
  memo: Memo | null;
  /** The network fee the body states, in whole units of the native coin, or null (src/core/transaction/fee.ts). */
  fee: Fee | null;
  /** The sum of the transfers' `usd`; null when any is null or there are none (src/facts/dollars.ts). */
  usd: string | null;
  /** The stated fee priced in the network's native asset; null when the fee or its price is unknown. */
  feeUsd: string | null;
}

export interface EndpointFacts {
  value: string;
  kind: EndpointForm;
  wallet: string | null;
  address: string | null;
  /** A wallet of the same vault (by resource name, or a raw address of one of its own wallets). */
  internal: boolean;
  /** A Stellar muxed address's sub-account id or an XRP X-address's tag (decimal), else null: what an exchange credits a payment to. */
  muxedId: string | null;
  /**
   * The account a payment to `address` lands in: a Stellar muxed address's `G…`, an XRP X-address's
   * classic `r…`, else `address` itself; null when the endpoint is no raw address. A rule about an
   * account and all its sub-accounts compares this (the loader refuses such an account against `address`).
   */
  baseAccount: string | null;
}

export interface AddressBookEntryFacts {
  name: string;
  displayName: string | null;
  address: string;
  network: string;
  signed: boolean | null;
}

export interface DestinationFacts extends EndpointFacts {
  inAddressBook: boolean;
  addressBook: AddressBookEntryFacts | null;
}

export interface TransferFacts {
  index: number;
  network: string | null;
  /** The asset's canonical name (src/core/chains/assets.ts assetIdentity), as the windows count it. */
  asset: string;
  /** The asset exactly as the body wrote it. */
  assetAsGiven: string;
  assetStandard: AssetStandard;
  amount: string | null;
  rawAmount: string | null;
  /**
   * The whole transaction's amount of this transfer's asset (however each transfer spelt it): the
   * sum of `amount` over its transfers of that asset, so that a batch of small transfers is judged
   * by what it moves in all. Null when one of them has no whole-unit amount (SEP-41).
   */
  assetTotal: string | null;
  /** USD for one whole unit of the asset, as the decision priced it; null when unknown. */
  usdPrice: string | null;
  /** amount × usdPrice, exact; null when either is unknown. */
  usd: string | null;
  source: EndpointFacts;
  destination: DestinationFacts;
  sponsor: string | null;
}

export interface WindowFacts {
  /** Approved amount in the window for this transfer's group before this transaction (measure amount only). */
  amount?: string;
  count: number;
  /**
   * Including this transfer and earlier transfers of the same transaction in the same group (measure
   * amount only). Null when one of those transfers has no whole-unit amount (SEP-41): the sum is
   * unknown, so a rule comparing it errors to the safe side.
   */
  amountAfter?: string | null;
  countAfter: number;
  /** Approved dollars in the window for this transfer's group before this transaction (measure usd only). */
  usd?: string;
  /** Including this transfer and earlier transfers of the same transaction in the same group (measure usd only). */
  usdAfter?: string | null;
}

/** Approved totals of one window group before this transaction (from the velocity charges). */
export interface WindowTotal {
  readonly amount: string;
  readonly count: number;
  /** The dollars charged, each charge at its decision's price; "0" when omitted (a test case's totals). */
  readonly usd?: string;
}

/**
 * Approved totals before this transaction: window name → group key (src/core/facts/group-keys.ts) →
 * total. Keyed by window first because two windows may share a group key yet differ in duration.
 * A missing window or key reads as zero.
 */
export type WindowTotals = ReadonlyMap<string, ReadonlyMap<string, WindowTotal>>;

export interface AddressBookFacts {
  configured: boolean;
  syncedAt: string | null;
  ageSeconds: number | null;
}

export interface Facts {
  now: string;
  nowHour: number;
  nowWeekday: number;
  tx: TxFacts;
  transfer: TransferFacts | null;
  velocity: Record<string, WindowFacts>;
  addressBook: AddressBookFacts;
  /** The transaction's review (docs/interface.md section 9); absent only in facts recorded before reviews existed. */
  review?: ReviewFacts;
}
