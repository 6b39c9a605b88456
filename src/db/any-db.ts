import type { Kysely } from "kysely";

/**
 * A connection whatever its tables: src/db/ runs its own SQL and names no feature's table (the
 * service's `Database` type is composed above the features, in src/database.ts). Kysely's own
 * Migrator takes `Kysely<any>` for the same reason.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- no table type can stand for every schema here, as in kysely's Migrator
export type AnyDb = Kysely<any>;
