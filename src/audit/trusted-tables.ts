/**
 * What `audit verify` reads, named so that nothing the schema's owner can redefine is called.
 *
 * The row digest is `sha256(utf8(canonical row))` (README "Integrity: the hash chain"). The
 * database's `audit_row_digest` and the sealer's `audit_canonical_text_sql` compute it, but whoever
 * owns the schema can replace either with one that returns the sealed digest for a rewritten row.
 * So verify builds the canonical text itself, from the catalog, as the sealer's expression does
 * (each present column as `"key": value` in jsonb's key order, a jsonb value as its text, a json
 * value as its jsonb, any other as `to_jsonb` of it), calling only pg_catalog functions and
 * operators by their qualified names, and runs with `search_path = pg_catalog` (see `pinSession`).
 * Tables are named with their schema, found before the path is pinned.
 */
import { sql, type RawBuilder } from "kysely";
import type { Db } from "../db/connect.js";
import type { AuditSource } from "./sources.js";

export interface ChainedTable extends AuditSource {
  /** The table, schema-qualified. */
  table: RawBuilder<unknown>;
  /** The row digest of a row `t` of the table. */
  digest: RawBuilder<Uint8Array>;
}

export interface TrustedNames {
  chain: RawBuilder<unknown>;
  seals: RawBuilder<unknown>;
  tables: ChainedTable[];
}

/** User-defined types start here: a cast of theirs to json would print the value its owner's way. */
const FIRST_USER_OID = 16384;

export async function trustedNames(db: Db, sources: AuditSource[]): Promise<TrustedNames> {
  const tables: ChainedTable[] = [];
  for (const s of sources) {
    const table = await qualified(db, s.source);
    const columns = await columnsOf(db, s.source);
    tables.push({ ...s, table, digest: digestOf(columns) });
  }
  return { chain: await qualified(db, "audit_chain"), seals: await qualified(db, "audit_seals"), tables };
}

/** search_path = pg_catalog and the settings that change how a value prints, for the rest of the transaction. */
export async function pinSession(trx: Db): Promise<void> {
  await sql`select pg_catalog.set_config('search_path', 'pg_catalog', true), pg_catalog.set_config('timezone', 'UTC', true),
    pg_catalog.set_config('extra_float_digits', '1', true), pg_catalog.set_config('bytea_output', 'hex', true),
    pg_catalog.set_config('intervalstyle', 'postgres', true), pg_catalog.set_config('standard_conforming_strings', 'on', true)`.execute(trx);
}

async function qualified(db: Db, name: string): Promise<RawBuilder<unknown>> {
  const { rows } = await sql<{ schema: string; name: string }>`
    select n.nspname as schema, c.relname as name from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where c.oid = pg_catalog.to_regclass(${name})`.execute(db);
  const row = rows[0];
  if (!row) throw new Error(`audit verify: no table ${name}`);
  return sql.id(row.schema, row.name);
}

interface Column {
  name: string;
  kind: "jsonb" | "json" | "other";
  userType: boolean;
}

async function columnsOf(db: Db, source: string): Promise<Column[]> {
  const { rows } = await sql<{ name: string; kind: Column["kind"]; user_type: boolean }>`
    select a.attname::text as name,
      case coalesce(nullif(ty.typbasetype, 0), ty.oid)
        when 'pg_catalog.jsonb'::pg_catalog.regtype then 'jsonb' when 'pg_catalog.json'::pg_catalog.regtype then 'json' else 'other' end as kind,
      coalesce(nullif(ty.typbasetype, 0), ty.oid)::pg_catalog.int8 >= ${FIRST_USER_OID} or ty.typelem::pg_catalog.int8 >= ${FIRST_USER_OID} as user_type
    from pg_catalog.pg_attribute a join pg_catalog.pg_type ty on ty.oid = a.atttypid
    where a.attrelid = pg_catalog.to_regclass(${source}) and a.attnum > 0 and not a.attisdropped and a.attname <> 'written_xid'`.execute(db);
  const columns = rows.map((r) => ({ name: r.name, kind: r.kind, userType: r.user_type }));
  const untrusted = columns.find((c) => c.userType);
  if (untrusted) throw new Error(`audit verify: ${source}.${untrusted.name} has a user-defined type, whose printing its owner decides`);
  return columns.sort(jsonbKeyOrder);
}

/** jsonb's key order: shorter keys first (in bytes), then bytewise. */
function jsonbKeyOrder(a: Column, b: Column): number {
  const x = Buffer.from(a.name, "utf8");
  const y = Buffer.from(b.name, "utf8");
  return x.length - y.length || Buffer.compare(x, y);
}

const concat = sql.raw("operator(pg_catalog.||)");
const differs = sql.raw("operator(pg_catalog.<>)");

function present(c: Column): RawBuilder<string> {
  const value = sql.id("t", c.name);
  const key = sql.lit(`${JSON.stringify(c.name)}: `);
  if (c.kind === "jsonb") return sql`case when pg_catalog.jsonb_typeof(${value}) ${differs} 'null' then ${key} ${concat} ${value}::pg_catalog.text end`;
  if (c.kind === "json") return sql`case when pg_catalog.json_typeof(${value}) ${differs} 'null' then ${key} ${concat} ${value}::pg_catalog.jsonb::pg_catalog.text end`;
  return sql`case when ${value} is not null then ${key} ${concat} pg_catalog.to_jsonb(${value})::pg_catalog.text end`;
}

function digestOf(columns: Column[]): RawBuilder<Uint8Array> {
  const elements = sql.join(columns.map(present));
  return sql`pg_catalog.sha256(pg_catalog.convert_to('{' ${concat} pg_catalog.array_to_string(array[${elements}]::pg_catalog.text[], ', ') ${concat} '}', 'UTF8'))`;
}
