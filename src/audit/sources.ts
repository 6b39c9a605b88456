/**
 * The tables in the hash chain (`audit_sources`, filled by `audit_chain_register` in migrations).
 */
import { sql, type RawBuilder } from "kysely";
import type { Db } from "../database.js";

export interface AuditSource {
  source: string;
  keyColumn: string;
  /** The key column's SQL type, as format_type gives it (`uuid`, `text`, …). */
  keyType: string;
  timeColumn: string;
}

const SQL_TYPE = /^[a-z][a-z0-9 _]*$/;

/** `table`: audit_sources, qualified with the schema verified. */
export async function auditSources(db: Db, table: RawBuilder<unknown>): Promise<AuditSource[]> {
  const { rows } = await sql<{ source: string; key_column: string; key_type: string; time_column: string }>`
    select source, key_column, key_type, time_column from ${table} order by source`.execute(db);
  return rows.map((r) => {
    // The type is spliced into SQL: accept only a plain type name.
    if (!SQL_TYPE.test(r.key_type)) throw new Error(`audit_sources: unexpected key type for ${r.source}`);
    return { source: r.source, keyColumn: r.key_column, keyType: r.key_type, timeColumn: r.time_column };
  });
}

/** bytea arrives as a Buffer from pg and a Uint8Array from PGlite. */
export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}
