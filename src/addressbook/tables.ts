/**
 * Tables owned by src/addressbook/ (composed into the kysely Database in src/database.ts).
 *
 * Each vault's copy is stored under a generation number: a sync writes the new copy as
 * generation N+1 and moves the status row's `generation` to it in the same transaction. Rows of a
 * generation never change, so a cache keyed by (vault, generation) stays correct across service
 * processes, and a reader that reads the status row and the rows of its generation in one
 * snapshot never sees half a copy. `vault` holds the resource name `vaults/{id}`; networks are
 * stored without the `networks/` prefix.
 */
import type { ColumnType } from "kysely";

/** int8 comes back from pg as a string; written as a string too. */
type Int8 = ColumnType<string, string, string>;
type NullableTimestamp = ColumnType<Date | null, Date | null, Date | null>;

export interface AddressBookSyncTable {
  vault: string;
  /** The generation of the current copy; 0 before the first good sync. */
  generation: ColumnType<string, string | undefined, string>;
  /** SHA-256 of the copy's content: an unchanged copy only moves `synced_at`. */
  content_digest: string | null;
  /** When the current copy was fetched (the start of the sync that fetched it). */
  synced_at: NullableTimestamp;
  attempted_at: NullableTimestamp;
  last_error_code: string | null;
  last_error: string | null;
  last_error_at: NullableTimestamp;
  entry_count: ColumnType<number, number | undefined, number>;
  own_address_count: ColumnType<number, number | undefined, number>;
}

export interface AddressBookEntriesTable {
  vault: string;
  generation: Int8;
  /** `vaults/{v}/addressBookEntries/{e}` */
  name: string;
  display_name: string | null;
  address: string;
  network: string;
  signed: boolean | null;
}

export interface AddressBookOwnAddressesTable {
  vault: string;
  generation: Int8;
  /** `vaults/{v}/wallets/{w}` */
  wallet: string;
  wallet_address: string | null;
  address: string;
  network: string;
}

/** The vault's external wallets (not controlled by the platform): never `internal` by name. */
export interface AddressBookExternalWalletsTable {
  vault: string;
  generation: Int8;
  /** `vaults/{v}/wallets/{w}` */
  wallet: string;
}

/** The vault's custodied wallets: with sync on, the only wallet names that are `internal`. */
export interface AddressBookWalletsTable {
  vault: string;
  generation: Int8;
  /** `vaults/{v}/wallets/{w}` */
  wallet: string;
}

export interface AddressBookTables {
  address_book_sync: AddressBookSyncTable;
  address_book_entries: AddressBookEntriesTable;
  address_book_own_addresses: AddressBookOwnAddressesTable;
  address_book_external_wallets: AddressBookExternalWalletsTable;
  address_book_wallets: AddressBookWalletsTable;
}
