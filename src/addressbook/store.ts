/**
 * The per-vault copy in the database. A replacement is one transaction that writes generation
 * N+1, points the status row at it and deletes older generations; a reader reads the status row
 * and the rows of its generation in one REPEATABLE READ snapshot. So a reader sees the old copy
 * or the new one, never half of either, and a failed sync leaves the last good copy in place.
 */
import { createHash } from "node:crypto";
import type { InsertObject } from "kysely";
import type { Db } from "../database.js";
import type { Database } from "../database.js";
import { canonicalCopy, vaultName, type CanonicalCopy } from "./copy.js";
import { notConfiguredView, type AddressBookEntry, type AddressBookView, type OwnWalletAddress } from "../core/addressbook/types.js";

export interface ReplaceOutcome {
  /** `replaced`: new generation written; `unchanged`: same content, only the sync time moved;
   *  `superseded`: a copy fetched later is already stored, this one was dropped. */
  kind: "replaced" | "unchanged" | "superseded";
  generation: number;
}

export interface SyncFailure {
  code: string;
  message: string;
}

// 7 parameters a row: well under Postgres' 65535 bind parameters a statement.
const INSERT_CHUNK = 1000;

type CopyTable = "address_book_entries" | "address_book_own_addresses" | "address_book_external_wallets" | "address_book_wallets";

/** Inserts in chunks: one statement per 1,000 rows keeps every statement under Postgres's parameter limit. */
async function insertChunked<T extends CopyTable>(trx: Db, table: T, rows: readonly InsertObject<Database, T>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + INSERT_CHUNK))
      .execute();
  }
}

/**
 * `externalWallets`: the vault's external wallet names (most vaults have none); `custodiedWallets`:
 * its custodied wallet names (the only wallet names that count as internal once synced).
 */
export async function replaceVaultCopy(
  db: Db,
  vault: string,
  entries: readonly AddressBookEntry[],
  ownAddresses: readonly OwnWalletAddress[],
  syncedAt: Date,
  externalWallets: readonly string[] = [],
  custodiedWallets: readonly string[] = [],
): Promise<ReplaceOutcome> {
  const name = vaultName(vault);
  const copy = withWallets(canonicalCopy(entries, ownAddresses), externalWallets, custodiedWallets);
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto("address_book_sync")
      .values({ vault: name })
      .onConflict((oc) => oc.column("vault").doNothing())
      .execute();
    // The row lock serialises replacements of one vault, also across service processes.
    const current = await trx.selectFrom("address_book_sync").selectAll().where("vault", "=", name).forUpdate().executeTakeFirstOrThrow();
    const generation = Number(current.generation);
    if (current.synced_at !== null && current.synced_at > syncedAt) return { kind: "superseded", generation };
    const succeeded = { synced_at: syncedAt, attempted_at: syncedAt, last_error_code: null, last_error: null, last_error_at: null };
    if (generation > 0 && current.content_digest === copy.digest) {
      await trx.updateTable("address_book_sync").set(succeeded).where("vault", "=", name).execute();
      return { kind: "unchanged", generation };
    }
    const next = String(generation + 1);
    await insertChunked(
      trx,
      "address_book_entries",
      copy.entries.map((e) => ({
        vault: name,
        generation: next,
        name: e.name,
        display_name: e.displayName,
        address: e.address,
        network: e.network,
        signed: e.signed,
      })),
    );
    await insertChunked(
      trx,
      "address_book_own_addresses",
      copy.ownAddresses.map((a) => ({
        vault: name,
        generation: next,
        wallet: a.wallet,
        wallet_address: a.walletAddress,
        address: a.address,
        network: a.network,
      })),
    );
    await insertChunked(
      trx,
      "address_book_external_wallets",
      copy.externalWallets.map((wallet) => ({ vault: name, generation: next, wallet })),
    );
    await insertChunked(
      trx,
      "address_book_wallets",
      copy.custodiedWallets.map((wallet) => ({ vault: name, generation: next, wallet })),
    );
    await trx
      .updateTable("address_book_sync")
      .set({ ...succeeded, generation: next, content_digest: copy.digest, entry_count: copy.entries.length, own_address_count: copy.ownAddresses.length })
      .where("vault", "=", name)
      .execute();
    await trx.deleteFrom("address_book_entries").where("vault", "=", name).where("generation", "<", next).execute();
    await trx.deleteFrom("address_book_own_addresses").where("vault", "=", name).where("generation", "<", next).execute();
    await trx.deleteFrom("address_book_external_wallets").where("vault", "=", name).where("generation", "<", next).execute();
    await trx.deleteFrom("address_book_wallets").where("vault", "=", name).where("generation", "<", next).execute();
    return { kind: "replaced", generation: generation + 1 };
  });
}

/**
 * The canonical copy plus the sorted, deduplicated external and custodied wallet names, in the
 * digest too: a wallet that turns external, appears or goes must rewrite the copy. Without wallet
 * names the digest is the plain copy's (and without custodied ones, the digest of the copy with
 * external wallets), so a copy stored before a table existed is rewritten once, by its first sync
 * that has something to put in it.
 */
function withWallets(
  copy: CanonicalCopy,
  externalWallets: readonly string[],
  custodiedWallets: readonly string[],
): CanonicalCopy & { externalWallets: string[]; custodiedWallets: string[] } {
  const external = [...new Set(externalWallets)].sort();
  const custodied = [...new Set(custodiedWallets)].sort();
  const parts = custodied.length > 0 ? [copy.digest, external, custodied] : external.length > 0 ? [copy.digest, external] : null;
  const digest = parts === null ? copy.digest : createHash("sha256").update(JSON.stringify(parts)).digest("hex");
  return { ...copy, digest, externalWallets: external, custodiedWallets: custodied };
}

/**
 * Records a failed sync; the copy and its sync time stay as they are. A failure of an attempt
 * older than the stored copy (a slow process finishing late) is not recorded over it.
 */
export async function recordSyncFailure(db: Db, vault: string, error: SyncFailure, at: Date): Promise<void> {
  const name = vaultName(vault);
  const failed = { attempted_at: at, last_error_code: error.code, last_error: error.message, last_error_at: at };
  await db
    .insertInto("address_book_sync")
    .values({ vault: name, ...failed })
    .onConflict((oc) =>
      oc
        .column("vault")
        .doUpdateSet(failed)
        .where((eb) => eb.or([eb("address_book_sync.synced_at", "is", null), eb("address_book_sync.synced_at", "<=", at)])),
    )
    .execute();
}

export interface VaultSnapshot {
  /** 0 when the vault was never synced. */
  generation: number;
  view: AddressBookView;
}

/** The vault's copy as one consistent snapshot. */
export async function readVaultView(db: Db, vault: string, configured: boolean): Promise<AddressBookView> {
  if (!configured) return notConfiguredView(vaultName(vault));
  return (await readVaultSnapshot(db, vault)).view;
}

export async function readVaultSnapshot(db: Db, vault: string): Promise<VaultSnapshot> {
  const name = vaultName(vault);
  return db
    .transaction()
    .setIsolationLevel("repeatable read")
    .setAccessMode("read only")
    .execute(async (trx) => {
      const status = await trx.selectFrom("address_book_sync").select(["generation", "synced_at"]).where("vault", "=", name).executeTakeFirst();
      const generation = status === undefined ? 0 : Number(status.generation);
      const empty = { generation, view: { configured: true, vault: name, syncedAt: null, entries: [], ownAddresses: [], externalWallets: [], wallets: [] } };
      if (status === undefined || generation === 0) return empty;
      const entryRows = await trx
        .selectFrom("address_book_entries")
        .select(["name", "display_name", "address", "network", "signed"])
        .where("vault", "=", name)
        .where("generation", "=", String(generation))
        .orderBy("name")
        .execute();
      const ownRows = await trx
        .selectFrom("address_book_own_addresses")
        .select(["wallet", "wallet_address", "address", "network"])
        .where("vault", "=", name)
        .where("generation", "=", String(generation))
        .orderBy("wallet")
        .orderBy("network")
        .orderBy("address")
        .execute();
      const externalRows = await trx
        .selectFrom("address_book_external_wallets")
        .select(["wallet"])
        .where("vault", "=", name)
        .where("generation", "=", String(generation))
        .orderBy("wallet")
        .execute();
      const walletRows = await trx
        .selectFrom("address_book_wallets")
        .select(["wallet"])
        .where("vault", "=", name)
        .where("generation", "=", String(generation))
        .orderBy("wallet")
        .execute();
      const entries = entryRows.map((r) => ({ name: r.name, displayName: r.display_name, address: r.address, network: r.network, signed: r.signed }));
      const ownAddresses = ownRows.map((r) => ({ wallet: r.wallet, walletAddress: r.wallet_address, address: r.address, network: r.network }));
      const externalWallets = externalRows.map((r) => r.wallet);
      const wallets = walletRows.map((r) => r.wallet);
      return { generation, view: { configured: true, vault: name, syncedAt: status.synced_at, entries, ownAddresses, externalWallets, wallets } };
    });
}
