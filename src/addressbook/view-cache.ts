/**
 * The address-book views the facts builder reads, cached per process.
 *
 * Why this cache is correct with several service processes: a copy's rows never change once
 * written under a generation number, and any process's sync moves the status row to a new
 * generation. Each read asks the database for the vault's status row (one primary-key lookup:
 * generation and sync time) and reuses the cached content only when the generation matches, so
 * a copy replaced by another process is seen on the very next read — no TTL, no staleness window.
 * The sync time always comes from that fresh lookup, because an unchanged copy moves it without
 * a new generation.
 */
import type { Db } from "../database.js";
import { vaultName } from "./copy.js";
import { readVaultSnapshot } from "./store.js";
import { notConfiguredView, type AddressBookView } from "../core/addressbook/types.js";

export interface AddressBookReader {
  /** The vault's view; `configured: false` for a vault outside COUNTERSIGN_VAULTS. Rejects when the database fails. */
  read(vault: string): Promise<AddressBookView>;
}

export function createAddressBookReader(db: Db, configuredVaults: readonly string[]): AddressBookReader {
  const configured = new Set(configuredVaults.map(vaultName));
  const cache = new Map<string, { generation: number; view: AddressBookView }>();
  return {
    async read(vault) {
      const name = vaultName(vault);
      if (!configured.has(name)) return notConfiguredView(name);
      const status = await db.selectFrom("address_book_sync").select(["generation", "synced_at"]).where("vault", "=", name).executeTakeFirst();
      const generation = status === undefined ? 0 : Number(status.generation);
      const cached = cache.get(name);
      if (cached !== undefined && cached.generation === generation && generation > 0) {
        return { ...cached.view, syncedAt: status?.synced_at ?? null };
      }
      const snapshot = await readVaultSnapshot(db, name);
      const view = freeze(snapshot.view);
      // Keep the newest generation only: a slower concurrent read must not put an older one back.
      if (snapshot.generation >= (cache.get(name)?.generation ?? 0)) cache.set(name, { generation: snapshot.generation, view });
      return view;
    },
  };
}

function freeze(view: AddressBookView): AddressBookView {
  return Object.freeze({
    ...view,
    entries: Object.freeze(view.entries.map((e) => Object.freeze({ ...e }))),
    ownAddresses: Object.freeze(view.ownAddresses.map((a) => Object.freeze({ ...a }))),
    ...(view.externalWallets === undefined ? {} : { externalWallets: Object.freeze([...view.externalWallets]) }),
    ...(view.wallets === undefined ? {} : { wallets: Object.freeze([...view.wallets]) }),
  });
}
