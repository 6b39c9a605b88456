/**
 * What a reviewer reads before deciding: the transaction's transfers (amounts, assets, endpoints,
 * address-book names), its window usage and the rules that deferred it, taken from the facts and
 * the outcome of the delivery that opened the review.
 */
import type { Facts } from "../core/facts/types.js";
import type { Outcome, PolicyBundle } from "../core/policy/types.js";
import type { Fee, Memo } from "../core/transaction/types.js";

export interface ExplainedTransfer {
  index: number;
  network: string | null;
  asset: string;
  amount: string | null;
  rawAmount: string | null;
  /** transfer.usd and transfer.usdPrice at opening; null when unpriced (absent on reviews opened before prices). */
  usd?: string | null;
  usdPrice?: string | null;
  source: string;
  destination: string;
  /** The address-book entry's display name (or resource name), when the destination is one. */
  destinationName: string | null;
  destinationInAddressBook: boolean;
  destinationInternal: boolean;
  velocity: Facts["velocity"];
}

export interface ExplainedRule {
  rule: string;
  reason: string | null;
  transfers: (number | null)[];
  review: { group: string; quorum: number; expiresAfter: string } | null;
}

export interface Explanation {
  kind: string;
  /** `tx.type`, `tx.subType` as received (absent on reviews opened before they were kept). */
  type?: string | null;
  subType?: string | null;
  /**
   * What the transaction carries beside its transfers that can move value or grant authority
   * (`tx.payloads`: an allowance, calldata, a delegation...). The transfers alone are not all such a
   * transaction does, so a reviewer must see these (absent on reviews opened before they were kept).
   */
  payloads?: string[];
  /**
   * `tx.memo` and `tx.fee`: the account an exchange credits a deposit to, and what the transaction
   * pays beside its transfers. No transfer shows either (absent on reviews opened before they were kept).
   */
  memo?: Memo | null;
  fee?: Fee | null;
  initiator: string | null;
  note: string | null;
  externalId: string | null;
  policyVersion: string;
  reasons: string[];
  transfers: ExplainedTransfer[];
  /** The defer rules that matched at opening, with what each asks for. */
  deferredBy: ExplainedRule[];
}

export function explain(bundle: PolicyBundle, outcome: Pick<Outcome, "matched" | "facts" | "reasons">): Explanation {
  const first = outcome.facts[0];
  const transfers = outcome.facts.flatMap((f): ExplainedTransfer[] => {
    const t = f.transfer;
    if (!t) return [];
    const entry = t.destination.addressBook;
    return [
      {
        index: t.index,
        network: t.network,
        asset: t.asset,
        amount: t.amount,
        rawAmount: t.rawAmount,
        usd: t.usd,
        usdPrice: t.usdPrice,
        source: t.source.value,
        destination: t.destination.value,
        destinationName: entry ? (entry.displayName ?? entry.name) : null,
        destinationInAddressBook: t.destination.inAddressBook,
        destinationInternal: t.destination.internal,
        velocity: f.velocity,
      },
    ];
  });
  const deferredBy = bundle.rules
    .filter((rule) => rule.decision === "defer")
    .flatMap((rule): ExplainedRule[] => {
      const matches = outcome.matched.filter((m) => m.rule === rule.id);
      if (matches.length === 0) return [];
      const review = rule.review ? { group: rule.review.group, quorum: rule.review.quorum, expiresAfter: rule.review.expiresAfter } : null;
      return [{ rule: rule.id, reason: rule.reason, transfers: matches.map((m) => m.transfer), review }];
    });
  return {
    kind: first?.tx.kind ?? "unknown",
    type: first?.tx.type ?? null,
    subType: first?.tx.subType ?? null,
    payloads: [...(first?.tx.payloads ?? [])],
    memo: first?.tx.memo ?? null,
    fee: first?.tx.fee ?? null,
    initiator: first?.tx.initiator ?? null,
    note: first?.tx.note ?? null,
    externalId: first?.tx.externalId ?? null,
    policyVersion: bundle.version,
    reasons: outcome.reasons,
    transfers,
    deferredBy,
  };
}
