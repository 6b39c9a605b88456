/**
 * countersign's synced copy of one vault's address book and own wallets, as the facts builder
 * reads it. Filled by the address-book sync (src/addressbook/sync.ts) from the custody API; in
 * `policy check` test cases it is given inline.
 */

export interface AddressBookEntry {
  /** `vaults/{v}/addressBookEntries/{e}` */
  name: string;
  displayName: string | null;
  address: string;
  /** Network id without the `networks/` prefix (`ethereum-mainnet`). */
  network: string;
  /** False while the entry has not been through the vault's quorum; such entries never allow. */
  signed: boolean | null;
}

export interface OwnWalletAddress {
  /** `vaults/{v}/wallets/{w}` */
  wallet: string;
  /** `vaults/{v}/wallets/{w}/addresses/{a}`, when known. */
  walletAddress: string | null;
  address: string;
  /** Network id without the `networks/` prefix. */
  network: string;
}

export interface AddressBookView {
  /** False when address-book sync is not configured for this vault (no COUNTERSIGN_API_URL). */
  configured: boolean;
  vault: string;
  /** Time of the last good sync of this vault, or null when it never happened. */
  syncedAt: Date | null;
  entries: readonly AddressBookEntry[];
  ownAddresses: readonly OwnWalletAddress[];
  /**
   * Resource names (`vaults/{v}/wallets/{w}`) of the vault's external wallets: tracked addresses
   * the platform does not control, so a transfer to one leaves custody. Absent when unknown (sync
   * not configured, a policy test case): a wallet of the vault is then internal by its name alone.
   */
  externalWallets?: readonly string[];
  /**
   * Resource names of the vault's custodied wallets (the platform holds their keys), archived
   * included. A synced copy always lists them, and then a wallet name is `internal` only when it
   * is listed here and not external: a name the copy does not know is not trusted. Absent when
   * unknown (a policy test case): internal by name, as without sync.
   */
  wallets?: readonly string[];
}

export const notConfiguredView = (vault: string): AddressBookView => ({
  configured: false,
  vault,
  syncedAt: null,
  entries: [],
  ownAddresses: [],
});
