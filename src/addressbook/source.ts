/**
 * The address book as the decision path reads it (AddressBookSource, which src/decision/ imports): the cached
 * per-vault view (view-cache.ts) and the freshness rule (freshness.ts) with the configured
 * maximum age. With sync on, a vault outside COUNTERSIGN_VAULTS has no copy at all: nothing could
 * tell its wallets or address book, so its transactions defer rather than be judged by names.
 */
import type { CustodyApiConfig } from "../config.js";
import type { AddressBookView } from "../core/addressbook/types.js";
import type { Db } from "../database.js";
import { addressBookFreshness } from "./freshness.js";
import { createAddressBookReader } from "./view-cache.js";

export interface AddressBookSource {
  /** The vault's synced copy (or a not-configured view when sync is off). */
  viewFor(vault: string): Promise<AddressBookView>;
  /** Why the copy is too old to judge by (its transfers then defer), or null when it is usable. */
  staleReason(view: AddressBookView, now: Date): string | null;
}

export function createAddressBookSource(db: Db, config: Pick<CustodyApiConfig, "vaults" | "maxAgeSeconds">): AddressBookSource {
  const reader = createAddressBookReader(db, config.vaults);
  return {
    viewFor: (vault) => reader.read(vault),
    staleReason: (view, now) => (view.configured ? addressBookFreshness(view, now, config.maxAgeSeconds).reason : notSyncedReason(view.vault)),
  };
}

export const notSyncedReason = (vault: string): string => `${vault} is not among the vaults whose address books this service syncs (COUNTERSIGN_VAULTS)`;
