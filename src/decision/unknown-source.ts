/**
 * A window grouped by `sourceWallet` charges a transfer to its source wallet, or to the source
 * address when no wallet is known (docs/interface.md section 4). The custody API lets the initiator name
 * a source as the wallet or as its raw address, so one wallet could be charged under two groups,
 * each with the whole limit. A raw source address is therefore judged only once its wallet is
 * known from something countersign can check; until then the transfer is not evaluated:
 *
 * - sync configured: the synced copy of the vault's own wallets must list the address. A body's
 *   `request.sourceWallet` does not stand in for the copy: a claimed wallet for an address the
 *   copy does not know cannot be checked, and any claim would open a group of its own. Defer: a
 *   wallet or address made since the last sync is known after the next one; the co-signer asks again.
 * - sync not configured: nothing can be checked, and `request.sourceWallet` is taken as the
 *   platform gives it, except where it may name another account than the transfer's source: a
 *   Stellar operation whose source is not shown to be the transaction-level source's raw account
 *   (the claim may be that account's wallet, and a wallet name there proves nothing). Without a
 *   claim, or with such a one, deny: no copy will ever say, and a deferral would be asked again at
 *   every poll, forever; the initiator can name the wallet instead.
 *
 * A source the body names as a wallet or as a wallet's address resource is known, unless a chain
 * object beside it (an EVM, TON, Sui, Aptos or Substrate transaction) pays from an address not shown to be that wallet's: with sync the copy
 * must list the sender (verify-claims.ts refuses a sender of another wallet), without sync it
 * cannot be shown. Windows grouped without `sourceWallet` are unaffected.
 */
import type { AddressBookView } from "../core/addressbook/types.js";
import { findOwnAddress } from "../core/facts/address-book.js";
import { sameAddress, signingAccount } from "../core/chains/accounts.js";
import type { TransferFacts } from "../core/facts/types.js";
import type { WindowSpec } from "../core/policy/types.js";
import type { ChainSender, Transaction } from "../core/transaction/types.js";

export type UnknownSource = { decision: "defer" | "deny"; reason: string };

/** What of the transaction the hold reads besides its transfers' facts. */
export type HeldTransaction = Pick<Transaction, "vault" | "transfers" | "sender">;

/**
 * `tx.vault`: the transaction's (`vaults/{v}`); `view`: the copy of it the facts were built from;
 * `tx.sender`: the address a chain object says the transaction pays from, which a source named by wallet must be
 * shown to be that wallet's (verify-claims.ts refuses one the copy gives to another wallet);
 * `tx.transfers`: which transfers are Stellar operations, each acting for an account of its own or
 * for the transaction-level source (told by where they came from, not by the transaction's kind,
 * which a payload makes `unknown`).
 */
export function unknownSourceHold(windows: readonly WindowSpec[], transfers: readonly TransferFacts[], view: AddressBookView, tx: HeldTransaction): UnknownSource | null {
  if (!windows.some((w) => w.groupBy.includes("sourceWallet"))) return null;
  // A transfer the transaction does not list (never, as facts are built from its transfers) is
  // taken as an operation: the stricter reading.
  const operation = (t: TransferFacts) => {
    const listed = tx.transfers[t.index];
    return listed === undefined || listed.stellarOperation === true;
  };
  const unknown = transfers.find((t) => !sourceWalletKnown(t, view, tx.vault, operation(t)));
  if (unknown) return rawSourceHold(unknown, view, tx.vault);
  if (tx.sender === null) return null;
  const sender = tx.sender;
  const unpaid = transfers.find((t) => !senderShown(t, view, tx.vault, sender.address));
  return unpaid ? senderHold(sender, unpaid, view, tx.vault) : null;
}

function rawSourceHold(t: TransferFacts, view: AddressBookView, vault: string): UnknownSource {
  // Named as the body wrote it, for the initiator to find; the facts hold its canonical spelling.
  const address = t.source.value;
  return view.configured
    ? { decision: "defer", reason: `source ${address} is not a wallet of ${vault} in the synced copy yet: a window groups by source wallet` }
    : {
        decision: "deny",
        reason: `source ${address} is a raw address and, without address-book sync, its wallet cannot be known: a window groups by source wallet; name the wallet instead`,
      };
}

function sourceWalletKnown(t: TransferFacts, view: AddressBookView, vault: string, operation: boolean): boolean {
  const address = t.source.kind === "address" ? t.source.address : null;
  if (address === null) return t.source.wallet !== null;
  if (view.configured) return findOwnAddress(view, vault, signingAccount(address), t.network) !== undefined;
  return t.source.wallet !== null && !(operation && claimMayNameAnother(t, address));
}

function senderHold(sender: ChainSender, t: TransferFacts, view: AddressBookView, vault: string): UnknownSource {
  const wallet = t.source.wallet ?? "the named wallet";
  const who = `the ${sender.chain} sender ${sender.address}`;
  return view.configured
    ? { decision: "defer", reason: `${who} is not a wallet of ${vault} in the synced copy yet, so it cannot be shown to be ${wallet}: a window groups by source wallet` }
    : { decision: "deny", reason: `${who} cannot be shown to be ${wallet} without address-book sync: a window groups by source wallet` };
}

/** The sender is the transfer's own raw source (checked when parsed), or the copy lists it (for the named wallet). */
function senderShown(t: TransferFacts, view: AddressBookView, vault: string, sender: string): boolean {
  if (t.source.address !== null && sameAddress(t.source.address, sender)) return true;
  return view.configured && findOwnAddress(view, vault, sender, t.network) !== undefined;
}

/**
 * Whether `request.sourceWallet` may name another account than a Stellar operation's raw source.
 * The claim is the transaction-level source's wallet (`sponsor`), which an operation's own source
 * need not be: it stands only when the transaction-level source is that same raw account. A
 * wallet name there, or none, cannot be compared with the operation's address, so the claim may be
 * anyone's. (A plain asset transfer has no such second account: its `sponsor` is a gas wallet.)
 */
function claimMayNameAnother(t: TransferFacts, address: string): boolean {
  return t.sponsor === null || !sameAddress(signingAccount(t.sponsor), signingAccount(address));
}
