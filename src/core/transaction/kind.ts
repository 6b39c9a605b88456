/**
 * The kind a body claims, from its markers: `subType`, `type`, the kind objects
 * (`stellarTransaction`, `evmAccountDelegation`) and shape 1's `details` key. Markers of two kinds
 * are refused with 400 — countersign never picks the milder reading. Markers that say "more than a
 * transfer" (`type` MESSAGE, a subType such as TOKEN_APPROVAL or CONTRACT_CALL) are payloads
 * (`type:MESSAGE`, `subType:TOKEN_APPROVAL`): the kind is then `unknown` whatever else the body holds.
 */
import { err, ok, type AppError, type Result } from "../errors.js";
import { networkId } from "../chains/assets.js";
import { invalidAt } from "./issues.js";
import { at, isRecord } from "./transfer.js";
import type { TransactionKind } from "./types.js";

/** subTypes of a plain transfer, listed in `transfers[]`. */
export const TRANSFER_SUBTYPES: ReadonlySet<string> = new Set(["NATIVE_TRANSFER", "TOKEN_TRANSFER", "NATIVE_MULTI_TRANSFER", "BATCH_TRANSFER", "BTC_TRANSFER"]);
export const DELEGATION_SUBTYPE = "EVM_ACCOUNT_DELEGATION";
/** subTypes the platform gives a Stellar transaction; any other beside a Stellar object is a contradiction. */
const STELLAR_SUBTYPES: ReadonlySet<string> = new Set(["NATIVE_TRANSFER", "TOKEN_TRANSFER", "GENERIC_TRANSACTION", "CHANGE_TRUST", "TOKEN_APPROVAL", "CONTRACT_CALL"]);

export interface Markers {
  type: string | null;
  subType: string | null;
  network: string | null;
  /** Shape 1's one `details` key, or null. */
  detailsKind: string | null;
  hasDetails: boolean;
}

export interface Claimed {
  kind: TransactionKind;
  /** Marker payloads: `type:…`, `subType:…`. */
  payloads: string[];
}

export function claimedKind(tx: Record<string, unknown>, m: Markers, path: string): Result<Claimed, AppError> {
  for (const key of ["stellarTransaction", "evmAccountDelegation"] as const) {
    if (tx[key] != null && !isRecord(tx[key])) return err(invalidAt(at(path, key), "must be an object"));
  }
  const stellarObject = tx.stellarTransaction != null;
  const stellar = stellarObject || m.detailsKind === "stellarTransaction";
  const delegation = m.subType === DELEGATION_SUBTYPE || tx.evmAccountDelegation != null || m.detailsKind === "evmAccountDelegation";
  const transferDetails = m.detailsKind === "assetTransfer" || m.detailsKind === "assetBatchTransfer";
  const transferSubType = m.subType !== null && TRANSFER_SUBTYPES.has(m.subType);
  const twoKinds =
    (stellarObject && m.hasDetails) ||
    (delegation && (stellar || transferDetails || transferSubType)) ||
    (delegation && m.hasDetails && m.detailsKind !== "evmAccountDelegation") ||
    (stellar && m.subType !== null && !STELLAR_SUBTYPES.has(m.subType)) ||
    (stellar && m.type === "MESSAGE") ||
    (stellar && m.network !== null && !networkId(m.network).startsWith("stellar-"));
  if (twoKinds) return err(invalidAt(path === "" ? "(body)" : path, "describes two kinds of transaction at once"));
  return ok({ kind: kindOf(m, stellar, delegation, transferDetails, transferSubType), payloads: markerPayloads(m) });
}

function kindOf(m: Markers, stellar: boolean, delegation: boolean, transferDetails: boolean, transferSubType: boolean): TransactionKind {
  if (m.hasDetails) {
    if (transferDetails) return "assetTransfer";
    if (stellar) return "stellarTransaction";
    return delegation ? "evmAccountDelegation" : "unknown";
  }
  if (stellar) return "stellarTransaction";
  if (transferSubType) return "assetTransfer";
  return delegation ? "evmAccountDelegation" : "unknown";
}

function markerPayloads(m: Markers): string[] {
  const payloads: string[] = [];
  if (m.type !== null && m.type !== "TRANSACTION") payloads.push(`type:${m.type}`);
  if (m.subType !== null && !TRANSFER_SUBTYPES.has(m.subType) && m.subType !== DELEGATION_SUBTYPE) payloads.push(`subType:${m.subType}`);
  return payloads;
}
