/**
 * The service's kysely `Database` type, composed here above the features as kysely's own example
 * composes one interface per table: each feature owns its tables (its `tables.ts`, beside the
 * queries that read them), and src/db/ opens connections and migrates without naming any.
 */
import type { Kysely } from "kysely";
import type { AddressBookTables } from "./addressbook/tables.js";
import type { AuditTables } from "./audit/tables.js";
import type { DeliveryTables } from "./deliveries/tables.js";
import { openConnection, type Connection, type OpenDatabaseOptions } from "./db/connect.js";
import type { EventTables } from "./events/tables.js";
import type { ReviewTables } from "./review/tables.js";
import type { VelocityTables } from "./velocity/tables.js";

export interface Database extends AddressBookTables, AuditTables, DeliveryTables, EventTables, ReviewTables, VelocityTables {}

export type Db = Kysely<Database>;

export type DatabaseHandle = Connection<Database>;

/** A Postgres server when a URL is given, else the embedded PGlite under the data directory (src/db/connect.ts). */
export function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  return openConnection<Database>(options);
}
