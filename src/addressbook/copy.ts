/**
 * A vault's copy in canonical form: deduplicated and sorted, so that the same content always
 * gives the same digest (an unchanged copy is then not rewritten) and the same row order.
 * Offset-based paging can return an item twice when the list changes while it is read; the
 * duplicate is harmless and is dropped here, by the table's key.
 */
import { createHash } from "node:crypto";
import type { AddressBookEntry, OwnWalletAddress } from "../core/addressbook/types.js";

export interface CanonicalCopy {
  entries: AddressBookEntry[];
  ownAddresses: OwnWalletAddress[];
  digest: string;
}

const byKey = <T>(items: readonly T[], key: (item: T) => string): T[] => {
  const unique = new Map<string, T>();
  for (const item of items) unique.set(key(item), item);
  return [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, item]) => item);
};

export function canonicalCopy(entries: readonly AddressBookEntry[], ownAddresses: readonly OwnWalletAddress[]): CanonicalCopy {
  const sortedEntries = byKey(entries, (e) => e.name);
  const sortedOwn = byKey(ownAddresses, (a) => JSON.stringify([a.wallet, a.network, a.address]));
  const digest = createHash("sha256")
    .update(
      JSON.stringify([sortedEntries.map((e) => [e.name, e.displayName, e.address, e.network, e.signed]), sortedOwn.map((a) => [a.wallet, a.walletAddress, a.address, a.network])]),
    )
    .digest("hex");
  return { entries: sortedEntries, ownAddresses: sortedOwn, digest };
}

/** `vaults/{id}` from an id or a resource name. */
export function vaultName(vault: string): string {
  return vault.startsWith("vaults/") ? vault : `vaults/${vault}`;
}

/** The id from `vaults/{id}` or an id. */
export function vaultId(vault: string): string {
  return vault.startsWith("vaults/") ? vault.slice("vaults/".length) : vault;
}
