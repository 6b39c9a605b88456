/**
 * What the vault's synced address-book copy says about a transfer: whether a raw address is one
 * of the vault's own wallets, and whether a destination is a signed entry of its address book.
 * Only countersign's own copy counts, never hints carried in the body.
 */
import type { AddressBookEntry, AddressBookView, OwnWalletAddress } from "../addressbook/types.js";
import { notConfiguredView } from "../addressbook/types.js";
import { vaultOf } from "../transaction/endpoint.js";
import type { AddressBookEntryFacts, AddressBookFacts } from "./types.js";
import { bareNetwork, sameAddress } from "./addresses.js";

const vaultName = (vault: string): string => (vault.startsWith("vaults/") ? vault : `vaults/${vault}`);

/**
 * The view, if it is this vault's. A view of another vault (a wiring mistake) must not make
 * that vault's wallets internal or its entries trusted, so it reads as not configured.
 */
export function viewForVault(view: AddressBookView, vault: string): AddressBookView {
  return vaultName(view.vault) === vault ? view : notConfiguredView(vault);
}

/** The own wallet address equal to `address` on `network`, among wallets of `vault`. */
export function findOwnAddress(
  view: AddressBookView,
  vault: string,
  address: string,
  network: string | null,
): OwnWalletAddress | undefined {
  if (network === null) return undefined;
  return view.ownAddresses.find(
    (own) =>
      vaultOf(own.wallet) === vault && bareNetwork(own.network) === network && sameAddress(own.address, address),
  );
}

/**
 * Whether the copy lists `wallet` as one of the vault's external wallets (tracked addresses the
 * platform does not control). A view that does not know (sync off, a policy test case) says no,
 * so such a vault's wallets stay internal by name as before.
 */
export function isExternalWallet(view: AddressBookView, wallet: string): boolean {
  return view.externalWallets?.includes(wallet) ?? false;
}

/** The entry for `address` on `network`, unless marked `signed: false` (not yet through the quorum). */
export function findAddressBookEntry(
  view: AddressBookView,
  address: string,
  network: string | null,
): AddressBookEntryFacts | null {
  if (network === null) return null;
  const entry = view.entries.find(
    (e) => e.signed !== false && bareNetwork(e.network) === network && sameAddress(e.address, address),
  );
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
