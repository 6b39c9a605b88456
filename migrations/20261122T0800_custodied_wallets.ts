import type { Kysely } from "kysely";

/**
 * The vault's CUSTODIED wallets (custody API `v2Wallet.external` not true), by resource name, as
 * part of each generation of the copy. With address-book sync on, a wallet resource name is
 * `internal` only when the copy lists it here (and not as external): an unknown name of the vault
 * is not trusted until a sync finds it. Written, read and deleted with the other rows of its
 * generation (src/addressbook/store.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("address_book_wallets")
    .addColumn("vault", "text", (c) => c.notNull())
    .addColumn("generation", "bigint", (c) => c.notNull())
    /** `vaults/{v}/wallets/{w}` */
    .addColumn("wallet", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("address_book_wallets_pk", ["vault", "generation", "wallet"])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("address_book_wallets").execute();
}
