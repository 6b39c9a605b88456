import type { Kysely } from "kysely";

/**
 * The vault's EXTERNAL wallets (custody API `v2Wallet.external = true`: tracked addresses the
 * platform does not control), by resource name, as part of each generation of the copy. A
 * transfer to one leaves custody, so its name must not make a destination `internal`. Written,
 * read and deleted with the other rows of its generation (src/addressbook/store.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("address_book_external_wallets")
    .addColumn("vault", "text", (c) => c.notNull())
    .addColumn("generation", "bigint", (c) => c.notNull())
    /** `vaults/{v}/wallets/{w}` */
    .addColumn("wallet", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("address_book_external_wallets_pk", ["vault", "generation", "wallet"])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("address_book_external_wallets").execute();
}
