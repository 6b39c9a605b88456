import { sql, type Kysely } from "kysely";

/**
 * countersign's copy of each configured vault's address book and own wallet addresses, fetched
 * from the custody API, plus one sync-status row per vault. Copies are generation-numbered
 * (see src/addressbook/tables.ts): a replacement inserts generation N+1, points the status row at
 * it and deletes older generations, all in one transaction.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("address_book_sync")
    .addColumn("vault", "text", (c) => c.primaryKey())
    .addColumn("generation", "bigint", (c) => c.notNull().defaultTo(0).check(sql`generation >= 0`))
    .addColumn("content_digest", "text")
    .addColumn("synced_at", "timestamptz")
    .addColumn("attempted_at", "timestamptz")
    .addColumn("last_error_code", "text")
    .addColumn("last_error", "text")
    .addColumn("last_error_at", "timestamptz")
    .addColumn("entry_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("own_address_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("address_book_entries")
    .addColumn("vault", "text", (c) => c.notNull())
    .addColumn("generation", "bigint", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("display_name", "text")
    .addColumn("address", "text", (c) => c.notNull())
    .addColumn("network", "text", (c) => c.notNull())
    .addColumn("signed", "boolean")
    .addPrimaryKeyConstraint("address_book_entries_pk", ["vault", "generation", "name"])
    .execute();

  await db.schema
    .createTable("address_book_own_addresses")
    .addColumn("vault", "text", (c) => c.notNull())
    .addColumn("generation", "bigint", (c) => c.notNull())
    .addColumn("wallet", "text", (c) => c.notNull())
    .addColumn("wallet_address", "text")
    .addColumn("address", "text", (c) => c.notNull())
    .addColumn("network", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("address_book_own_addresses_pk", ["vault", "generation", "wallet", "network", "address"])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("address_book_own_addresses").execute();
  await db.schema.dropTable("address_book_entries").execute();
  await db.schema.dropTable("address_book_sync").execute();
}
