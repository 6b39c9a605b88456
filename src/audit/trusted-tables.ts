/**
 * What `audit verify` reads, named so that nothing the schema's owner can redefine is called.
 *
 * The row digest is `sha256(utf8(canonical row))` (README "Integrity: the hash chain"). The
 * database's `audit_row_digest` and the sealer's `audit_canonical_text_sql` compute it, but whoever
 * owns the schema can replace either with one that returns the sealed digest for a rewritten row.
 * So verify builds the canonical text itself, from the catalog, as the sealer's expression does
 * (each present column as `"key": value` in jsonb's key order, a jsonb value as its text, a json
 * value as its jsonb, any other as `to_jsonb` of it), calling only pg_catalog functions and
 * operators by their qualified names, and runs with `search_path = pg_catalog, pg_temp` (see
 * `pinSession`), pinned before anything is read. Tables are named with the schema being verified
 * (public by default), never looked up through the session's own path: a schema named after the
 * auditor's login comes first on the default path ("$user", public), and a copy of the trail
 * there would be verified in place of the tables the service writes. A table that the session's
 * own path would resolve elsewhere is refused (`shadowed_table`), since a client reading through
 * that path sees something else.
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
  /** The schema verified. */
  schema: string;
  chain: RawBuilder<unknown>;
  seals: RawBuilder<unknown>;
  tables: ChainedTable[];
}

/** User-defined types start here: a cast of theirs to json would print the value its owner's way. */
const FIRST_USER_OID = 16384;

export type RefusalCode = "no_table" | "shadowed_table" | "user_type";

/** Verify will not read this database as it stands; `code` says why. */
export class VerifyRefused extends Error {
  constructor(
    readonly code: RefusalCode,
    message: string,
  ) {
    super(message);
    this.name = "VerifyRefused";
  }
}

/** The session's schemas as its own search_path resolves them, in order (before pinning). */
export type SessionPath = string[];

export async function trustedNames(db: Db, schema: string, sources: AuditSource[], path: SessionPath): Promise<TrustedNames> {
  const tables: ChainedTable[] = [];
  for (const s of sources) {
    const rel = await relation(db, schema, s.source, path);
    const columns = await columnsOf(db, rel, s.source);
    tables.push({ ...s, table: rel.name, digest: digestOf(columns) });
  }
  const chain = await relation(db, schema, "audit_chain", path);
  const seals = await relation(db, schema, "audit_seals", path);
  return { schema, chain: chain.name, seals: seals.name, tables };
}

/**
 * `pg_catalog, pg_temp` (a temporary table cannot stand in for one of ours) and the settings that
 * change how a value prints, for the rest of the transaction; returns the path as it was, as
 * schemas (current_schemas, qualified and called without an operator: nothing the owner defines runs).
 */
export async function pinSession(trx: Db): Promise<SessionPath> {
  const { rows } = await sql<{ path: string[] }>`select pg_catalog.current_schemas(true)::pg_catalog.text[] as path`.execute(trx);
  await sql`select pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true), pg_catalog.set_config('timezone', 'UTC', true),
    pg_catalog.set_config('extra_float_digits', '1', true), pg_catalog.set_config('bytea_output', 'hex', true),
    pg_catalog.set_config('intervalstyle', 'postgres', true), pg_catalog.set_config('standard_conforming_strings', 'on', true)`.execute(trx);
  return rows[0]?.path ?? [];
}

interface Relation {
  oid: string;
  /** schema.table, quoted. */
  name: RawBuilder<unknown>;
}

/** `schema.name`, after checking that the session's own path would not find `name` elsewhere first. */
export async function relation(db: Db, schema: string, name: string, path: SessionPath): Promise<Relation> {
  const { rows } = await sql<{ oid: string; schema: string; first: number }>`
    select c.oid::text as oid, n.nspname::text as schema, p.first::int as first
    from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    left join pg_catalog.unnest(${path}::pg_catalog.text[]) with ordinality p(nsp, first) on p.nsp = n.nspname
    where c.relname = ${name} and (n.nspname = ${schema} or p.first is not null)
    order by p.first nulls last`.execute(db);
  const own = rows.find((r) => r.schema === schema);
  if (!own) throw new VerifyRefused("no_table", `audit verify: no table ${schema}.${name}`);
  const seen = rows[0]!;
  if (seen.schema !== schema) {
    throw new VerifyRefused(
      "shadowed_table",
      `audit verify: this session's search_path (${path.join(", ")}) finds ${seen.schema}.${name} before ${schema}.${name}; ` +
        `a table of that name in another schema earlier on the path is what unqualified queries read: drop it or verify with that search_path fixed`,
    );
  }
  return { oid: own.oid, name: sql.id(schema, name) };
}

interface Column {
  name: string;
  kind: "jsonb" | "json" | "other";
  userType: boolean;
}

async function columnsOf(db: Db, rel: Relation, source: string): Promise<Column[]> {
  const { rows } = await sql<{ name: string; kind: Column["kind"]; user_type: boolean }>`
    select a.attname::text as name,
      case coalesce(nullif(ty.typbasetype, 0), ty.oid)
        when 'pg_catalog.jsonb'::pg_catalog.regtype then 'jsonb' when 'pg_catalog.json'::pg_catalog.regtype then 'json' else 'other' end as kind,
      coalesce(nullif(ty.typbasetype, 0), ty.oid)::pg_catalog.int8 >= ${FIRST_USER_OID} or ty.typelem::pg_catalog.int8 >= ${FIRST_USER_OID} as user_type
    from pg_catalog.pg_attribute a join pg_catalog.pg_type ty on ty.oid = a.atttypid
    where a.attrelid = ${rel.oid}::pg_catalog.oid and a.attnum > 0 and not a.attisdropped and a.attname <> 'written_xid'`.execute(db);
  const columns = rows.map((r) => ({ name: r.name, kind: r.kind, userType: r.user_type }));
  const untrusted = columns.find((c) => c.userType);
  if (untrusted) throw new VerifyRefused("user_type", `audit verify: ${source}.${untrusted.name} has a user-defined type, whose printing its owner decides`);
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
