/**
 * What the vault's synced address-book copy says about a transfer: whether a raw address is one
 * of the vault's own wallets, and whether a destination is a signed entry of its address book.
 * Only countersign's own copy counts, never hints carried in the body.
 */
import type { AddressBookEntry, AddressBookView, OwnWalletAddress } from "../addressbook/types.js";
import { notConfiguredView } from "../addressbook/types.js";
import { vaultOf } from "../transaction/endpoint.js";
import type { AddressBookEntryFacts, AddressBookFacts } from "./types.js";
import { normaliseAddress } from "../chains/accounts.js";
import { networkId } from "../chains/networks.js";

const vaultName = (vault: string): string => (vault.startsWith("vaults/") ? vault : `vaults/${vault}`);

/**
 * The view, if it is this vault's. A view of another vault (a wiring mistake) must not make
 * that vault's wallets internal or its entries trusted, so it reads as not configured.
 */
export function viewForVault(view: AddressBookView, vault: string): AddressBookView {
  return vaultName(view.vault) === vault ? view : notConfiguredView(vault);
}

// A vault's copy holds thousands of entries and every transfer looks its destination up: index
// each list once. The reader's cache hands out the same frozen arrays for a generation of the copy
// (in a fresh view object that carries the sync time), so the arrays are the cache key.
const entryIndexes = new WeakMap<readonly AddressBookEntry[], Map<string, AddressBookEntry[]>>();
const ownIndexes = new WeakMap<readonly OwnWalletAddress[], Map<string, OwnWalletAddress[]>>();
/** The own addresses by account alone, whatever their network (ownWalletsOnAnyNetwork). */
const ownAccountIndexes = new WeakMap<readonly OwnWalletAddress[], Map<string, OwnWalletAddress[]>>();

const lookupKey = (network: string, address: string): string => `${networkId(network)}\u0000${normaliseAddress(address)}`;
const onNetwork = (item: { network: string; address: string }): string => lookupKey(item.network, item.address);

function indexed<T extends { network: string; address: string }>(
  cache: WeakMap<readonly T[], Map<string, T[]>>,
  list: readonly T[],
  include: (item: T) => boolean = () => true,
  keyOf: (item: T) => string = onNetwork,
): Map<string, T[]> {
  let index = cache.get(list);
  if (!index) {
    index = new Map();
    for (const item of list.filter(include)) {
      const key = keyOf(item);
      index.set(key, [...(index.get(key) ?? []), item]);
    }
    cache.set(list, index);
  }
  return index;
}

/** The own wallet address equal to `address` on `network`, among wallets of `vault`. */
export function findOwnAddress(view: AddressBookView, vault: string, address: string, network: string | null): OwnWalletAddress | undefined {
  if (network === null) return undefined;
  return indexed(ownIndexes, view.ownAddresses)
    .get(lookupKey(network, address))
    ?.find((own) => vaultOf(own.wallet) === vault);
}

/**
 * The wallets of `vault` that own `address` on any network, for a transfer whose network is unknown
 * (an opaque asset id and no `network`): there findOwnAddress finds nothing, and a contradiction
 * the copy would show on the transfer's network went unseen.
 */
export function ownWalletsOnAnyNetwork(view: AddressBookView, vault: string, address: string): string[] {
  const owners = indexed(ownAccountIndexes, view.ownAddresses, undefined, (own) => normaliseAddress(own.address)).get(normaliseAddress(address)) ?? [];
  return [...new Set(owners.filter((own) => vaultOf(own.wallet) === vault).map((own) => own.wallet))];
}

/**
 * Whether the copy lists `wallet` as one of the vault's external wallets (tracked addresses the
 * platform does not control). A view that does not know (sync off, a policy test case) says no,
 * so such a vault's wallets stay internal by name as before.
 */
export function isExternalWallet(view: AddressBookView, wallet: string): boolean {
  return view.externalWallets?.includes(wallet) ?? false;
}

/**
 * Whether a wallet resource name of the vault counts as internal. Without sync (or in a policy test
 * case whose copy lists no wallets), by its name alone unless listed external. With a synced copy,
 * only a custodied wallet the copy lists: a name it does not know (made up, created since the last
 * sync, or of a wallet turned external) is not trusted until a sync finds it.
 */
export function isInternalWallet(view: AddressBookView, wallet: string): boolean {
  if (isExternalWallet(view, wallet)) return false;
  return view.wallets === undefined || !view.configured ? true : view.wallets.includes(wallet);
}

/**
 * The entry for `address` on `network` when it is `signed: true`: through the vault's quorum.
 * docs/interface.md section 4 excludes only `signed: false`, but the API marks the field "output only", as a
 * JSON gateway over protobuf does, and such a gateway leaves a false boolean out of its answer (as
 * this copy already reads a missing wallet `external`); an entry created unsigned
 * (`BatchCreateUnsignedAddressBookEntries`) would then count as approved. An answer without the
 * field fails closed: the entry does not count.
 */
export function findAddressBookEntry(view: AddressBookView, address: string, network: string | null): AddressBookEntryFacts | null {
  if (network === null) return null;
  // An entry not yet through the vault's quorum never counts, even beside a signed one.
  const entry = indexed(entryIndexes, view.entries, (e) => e.signed === true).get(lookupKey(network, address))?.[0];
  return entry === undefined ? null : entryFacts(entry);
}

const entryFacts = (e: AddressBookEntry): AddressBookEntryFacts => ({
  name: e.name,
  displayName: e.displayName,
  address: e.address,
  network: e.network,
  signed: e.signed,
});

export function addressBookFacts(view: AddressBookView, now: Date): AddressBookFacts {
  const syncedAt = view.syncedAt;
  return {
    configured: view.configured,
    syncedAt: syncedAt === null ? null : syncedAt.toISOString(),
    // A copy stamped after `now` (clock skew between processes) is as fresh as can be, not negative.
    ageSeconds: syncedAt === null ? null : Math.max(0, Math.floor((now.getTime() - syncedAt.getTime()) / 1000)),
  };
}
