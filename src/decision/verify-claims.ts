/**
 * What a body claims that only facts outside it can confirm, checked before the decision's
 * database transaction (no lock is held while the custody API answers):
 *
 * - a raw source address that the synced copy knows as one wallet, beside a `request.sourceWallet`
 *   naming another: a contradiction, refused (400) like the ones the parser sees (docs/interface.md
 *   section 1), never decided as either wallet;
 * - a whole amount beside a smallest-unit amount (src/core/transaction/unit-claims.ts): at the asset's
 *   decimals they must be equal, else the body is refused (400); when the decimals cannot be
 *   established the transfer's size is unknown and the decision defers (recorded, 503).
 */
import type { AddressBookView } from "../core/addressbook/types.js";
import type { AssetDecimals } from "../assets/decimals.js";
import { AppError } from "../core/errors.js";
import { findOwnAddress, ownWalletsOnAnyNetwork } from "../core/facts/address-book.js";
import { signingAccount } from "../core/chains/accounts.js";
import { traced } from "../telemetry/tracing.js";
import { amountsAgree } from "../core/transaction/amounts.js";
import type { Transaction } from "../core/transaction/types.js";
import { unitClaims, type UnitClaim } from "../core/transaction/unit-claims.js";

export type ClaimCheck = { kind: "confirmed" } | { kind: "refused"; error: AppError } | { kind: "unknown"; reason: string };

export async function verifyClaims(tx: Transaction, view: AddressBookView, decimals: AssetDecimals): Promise<ClaimCheck> {
  const source = sourceContradiction(tx, view);
  if (source !== null) return { kind: "refused", error: source };
  const claims = unitClaims(tx);
  if (claims.length === 0) return { kind: "confirmed" };
  const answers = await traced("countersign.facts.asset_decimals", () => Promise.all(claims.map((c) => decimals.decimalsOf(c.asset, tx.vault))));
  const unknown: string[] = [];
  for (const [i, claim] of claims.entries()) {
    const answer = answers[i]!;
    if (!answer.known) unknown.push(answer.reason);
    else if (!amountsAgree(claim.amount, claim.rawAmount, answer.decimals)) return { kind: "refused", error: disagreement(claim, answer.decimals) };
  }
  return unknown.length === 0 ? { kind: "confirmed" } : { kind: "unknown", reason: [...new Set(unknown)].join("; ") };
}

function disagreement(claim: UnitClaim, decimals: number): AppError {
  const stated =
    claim.statedBy === "rawAmount" ? "its rawAmount" : claim.statedBy === "evmValue" ? "the value its evmTransaction sends" : "the amount its evmTransaction calldata transfers";
  const message = `transfer ${claim.transferIndex}: amount disagrees with ${stated} at the asset's ${decimals} decimals`;
  return new AppError("INVALID_TRANSACTION", message, { details: [{ transfer: claim.transferIndex, message }] });
}

/** A raw source the copy knows as wallet A while `request.sourceWallet` claims B. */
function sourceContradiction(tx: Transaction, view: AddressBookView): AppError | null {
  const payer = senderContradiction(tx, view);
  if (payer !== null) return payer;
  if (tx.sourceWallet === null) return null;
  for (const t of tx.transfers) {
    if (t.source.wallet !== null || t.source.address === null) continue;
    if (otherOwner(view, tx.vault, signingAccount(t.source.address), t.network, tx.sourceWallet)) {
      const message = `transfer ${t.index}: the source address belongs to another wallet of the vault than request.sourceWallet`;
      return new AppError("INVALID_TRANSACTION", message, { details: [{ transfer: t.index, message }] });
    }
  }
  return null;
}

/**
 * The transaction pays from the sender its chain object names (`evmTransaction.fromAddress`,
 * `suiTransaction.sender`, ...: chain-senders.ts). A transfer that names its source by
 * wallet (or through `request.sourceWallet`) must name that address's wallet, when the synced copy
 * knows it: otherwise the policy and the windows would judge one wallet while another pays.
 */
function senderContradiction(tx: Transaction, view: AddressBookView): AppError | null {
  if (tx.sender === null) return null;
  for (const t of tx.transfers) {
    const named = t.source.wallet ?? tx.sourceWallet;
    if (named !== null && otherOwner(view, tx.vault, tx.sender.address, t.network, named)) {
      const message = `transfer ${t.index}: ${tx.sender.field} belongs to another wallet of the vault than the transfer's source`;
      return new AppError("INVALID_TRANSACTION", message, { details: [{ transfer: t.index, message }] });
    }
  }
  return null;
}

/**
 * Whether the copy gives `address` to another wallet of the vault than `named`: on the transfer's
 * network, or, when no network is known (an opaque asset id and no `network`), on any network the
 * copy lists it on. Skipping the look-up there let a transfer "from" the hot wallet that the cold
 * wallet pays be judged as the hot wallet's.
 */
function otherOwner(view: AddressBookView, vault: string, address: string, network: string | null, named: string): boolean {
  if (network !== null) {
    const own = findOwnAddress(view, vault, address, network);
    return own !== undefined && own.wallet !== named;
  }
  return ownWalletsOnAnyNetwork(view, vault, address).some((wallet) => wallet !== named);
}
