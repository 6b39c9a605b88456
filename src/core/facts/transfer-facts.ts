/**
 * The transaction and transfer parts of the facts document (docs/interface.md section 4): endpoints
 * resolved against the vault's own wallets and address book. Pure.
 */
import Big from "big.js";
import type { AddressBookView } from "../addressbook/types.js";
import { assetIdentity } from "../chains/assets.js";
import { vaultOf } from "../transaction/endpoint.js";
import type { Endpoint, Transaction, Transfer } from "../transaction/types.js";
import { findAddressBookEntry, findOwnAddress, isInternalWallet, viewForVault } from "./address-book.js";
import { baseAccount, signingAccount, subAccountId } from "../chains/accounts.js";
import { canonicalAccount } from "../chains/canonical.js";
import { NO_PRICES, priceOf, usdSum, usdValue, type PriceBook } from "./dollars.js";
import type { DestinationFacts, EndpointFacts, TransferFacts, TxFacts } from "./types.js";

export function txFacts(tx: Transaction, addressBook: AddressBookView, transfers: readonly TransferFacts[], prices: PriceBook = NO_PRICES): TxFacts {
  const payloads = withBitcoinPayloads(tx, viewForVault(addressBook, tx.vault));
  return {
    name: tx.name,
    vault: tx.vault,
    id: tx.id,
    kind: payloads.length > 0 ? "unknown" : tx.kind,
    type: tx.type,
    subType: tx.subType,
    state: tx.state,
    network: tx.network,
    note: tx.note,
    externalId: tx.externalId,
    requestId: tx.requestId,
    initiator: tx.initiator,
    designatedSigners: [...tx.designatedSigners],
    transferCount: tx.transfers.length,
    payloads,
    tokenAllowances: tx.tokenAllowances.map((a) => ({ ...a })),
    authorizations: tx.authorizations.map((a) => ({ ...a })),
    memo: tx.memo === null ? null : { ...tx.memo },
    fee: tx.fee === null ? null : { ...tx.fee },
    usd: usdSum(transfers.map((t) => t.usd)),
    feeUsd: tx.fee === null ? null : usdValue(tx.fee.amount, priceOf(prices, tx.fee.asset)),
  };
}

/**
 * The transaction's payloads, with `btcOutputs` when an output marked as change pays an address
 * the synced copy does not know as one of the vault's own: the mark is the body's word, and such
 * an output would move value out of the vault that no transfer shows. And `btcInputs` for inputs
 * from another wallet than the transfers' source (foreignInputs).
 */
function withBitcoinPayloads(tx: Transaction, view: AddressBookView): string[] {
  const unowned = tx.changeOutputs.some((o) => findOwnAddress(view, tx.vault, o.address, o.network) === undefined);
  const payloads = new Set(tx.payloads);
  if (unowned) payloads.add("btcOutputs");
  if (foreignInputs(tx, view)) payloads.add("btcInputs");
  return [...payloads].sort();
}

/**
 * Bitcoin inputs the synced copy does not give to the transfers' source wallet: the transaction
 * would spend from a wallet (or an address) no transfer shows, so the policy would judge one
 * wallet while another pays. Without a copy none can be shown to be the source's.
 */
function foreignInputs(tx: Transaction, view: AddressBookView): boolean {
  const sources = new Set(tx.transfers.map((t) => t.source.wallet ?? tx.sourceWallet));
  return tx.btcInputs.some((i) => {
    const own = findOwnAddress(view, tx.vault, i.address, i.network);
    return own === undefined || !sources.has(own.wallet);
  });
}

/**
 * One TransferFacts per transfer, in order. Exported apart from buildFacts because the velocity
 * group keys are computed from these (a raw address of an own wallet groups with that wallet), and
 * the caller needs the keys to lock and read the window totals before the facts can be completed.
 */
export function buildTransferFacts(tx: Transaction, addressBook: AddressBookView, prices: PriceBook = NO_PRICES): TransferFacts[] {
  const view = viewForVault(addressBook, tx.vault);
  const totals = assetTotals(tx.transfers);
  return tx.transfers.map((t) => transferFacts(t, tx, view, totals.get(identityOf(t)) ?? null, prices));
}

const identityOf = (t: Transfer): string => assetIdentity(t.asset, t.assetStandard, t.network);
/** A private big.js configuration, as in velocity.ts: strict, the global one left alone. */
const Dec = Big();
Dec.strict = true;

/** Each asset's total over the transaction's transfers; null for an asset one of whose transfers has no whole-unit amount. */
function assetTotals(transfers: readonly Transfer[]): Map<string, string | null> {
  const sums = new Map<string, Big.Big | null>();
  for (const t of transfers) {
    const key = identityOf(t);
    const sum = sums.has(key) ? sums.get(key)! : new Dec("0");
    sums.set(key, sum === null || t.amount === null ? null : sum.plus(t.amount));
  }
  return new Map([...sums].map(([key, sum]) => [key, sum === null ? null : sum.toFixed()]));
}

function transferFacts(t: Transfer, tx: Transaction, view: AddressBookView, assetTotal: string | null, prices: PriceBook): TransferFacts {
  const vault = tx.vault;
  const usdPrice = priceOf(prices, identityOf(t));
  return {
    index: t.index,
    network: t.network,
    asset: identityOf(t),
    assetAsGiven: t.asset,
    assetStandard: t.assetStandard,
    amount: t.amount,
    rawAmount: t.rawAmount,
    assetTotal,
    usdPrice,
    usd: usdValue(t.amount, usdPrice),
    // A muxed source spends from its base account: the wallet that owns that account.
    source: endpointFacts(t.source, t.network, vault, view, tx.sourceWallet, signingAccount),
    destination: destinationFacts(t.destination, t.network, vault, view),
    sponsor: t.sponsor,
  };
}

/**
 * Internal: a raw address that is one of the vault's own (custodied) wallet addresses on the
 * transfer's network (its wallet is then filled in), or a wallet or wallet-address resource name
 * of the same vault that isInternalWallet accepts: with sync on, a custodied wallet the synced
 * copy lists; without, any such name unless listed external. An external wallet's keys are not the
 * platform's, so a transfer there leaves custody whatever the vault in its name.
 *
 * A raw source address's wallet: the one the synced copy knows for that address, whatever
 * `request.sourceWallet` claims; only an address the copy does not know takes the claimed wallet
 * (`claimed`), so that one wallet has one velocity group whichever shape its transfers arrive in.
 * Whether a claim may be relied on for that group is the decision's to say (decision/unknown-source.ts).
 */
function endpointFacts(
  e: Endpoint,
  network: string | null,
  vault: string,
  view: AddressBookView,
  claimed: string | null = null,
  account: (address: string) => string = (address) => address,
): EndpointFacts {
  const own = e.address === null ? undefined : findOwnAddress(view, vault, account(e.address), network);
  const wallet = e.wallet ?? own?.wallet ?? claimed;
  const ofVault = own !== undefined || (wallet !== null && vaultOf(wallet) === vault);
  const internal = ofVault && (wallet === null || isInternalWallet(view, wallet));
  const address = e.address;
  return {
    value: e.value,
    kind: e.kind,
    wallet,
    address,
    internal,
    muxedId: address === null ? null : subAccountId(address),
    baseAccount: address === null ? null : canonicalAccount(baseAccount(address)),
  };
}

function destinationFacts(e: Endpoint, network: string | null, vault: string, view: AddressBookView): DestinationFacts {
  const entry = e.address === null ? null : findAddressBookEntry(view, e.address, network);
  return { ...endpointFacts(e, network, vault, view), inAddressBook: entry !== null, addressBook: entry };
}
