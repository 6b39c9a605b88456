/** The platform check's table (migrations/20261130T0200_delivery_refusals.ts), composed into src/database.ts. */
import type { ColumnType, Generated } from "kysely";
import type { RefusalCode } from "./compare.js";

type Json = ColumnType<unknown, string, never>;
type NullableJson = ColumnType<unknown, string | null, never>;

/** Append-only: the database refuses UPDATE, DELETE and TRUNCATE. */
export interface DeliveryRefusalsTable {
  id: string;
  seq: Generated<string>;
  refused_at: ColumnType<Date, Date | string, never>;
  transaction_name: string;
  vault: string;
  code: RefusalCode;
  delivered_digest: string;
  platform_digest: string | null;
  platform_state: string | null;
  /** The body as delivered (its transaction object). */
  delivered: Json;
  /** The platform's transaction object; null when it has none of that name. */
  platform: NullableJson;
  request_id: string;
}

export interface DeliveryTables {
  delivery_refusals: DeliveryRefusalsTable;
}
