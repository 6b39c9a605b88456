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
import type { Db } from "../database.js";
import type { AuditSource } from "./sources.js";

export interface ChainedTable extends AuditSource {
  /** The table, schema-qualified. */
  table: RawBuilder<unknown>;
  /** The row digest of a row `t` of the table. */
  digest: RawBuilder<Uint8Array>;
  /** The json and jsonb columns of a row `t` that hold JSON `null`, as a jsonb array of their names (`[]`: none). */
  jsonNulls: RawBuilder<string[]>;
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

export type RefusalCode = "no_table" | "shadowed_table" | "user_type" | "row_security" | "rewrite_rules";

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
  const bypassesRowSecurity = await roleBypassesRowSecurity(db);
  const readable = async (name: string) => {
    const rel = await relation(db, schema, name, path);
    await refuseFilteredReads(db, rel, `${schema}.${name}`, bypassesRowSecurity);
    return rel;
  };
  await readable("audit_sources");
  const tables: ChainedTable[] = [];
  for (const s of sources) {
    const rel = await readable(s.source);
    const columns = await columnsOf(db, rel, s.source);
    tables.push({ ...s, table: rel.name, digest: digestOf(columns), jsonNulls: jsonNullsOf(columns) });
  }
  const chain = await readable("audit_chain");
  const seals = await readable("audit_seals");
  return { schema, chain: chain.name, seals: seals.name, tables };
}

async function roleBypassesRowSecurity(db: Db): Promise<boolean> {
  const { rows } = await sql<{ bypass: boolean }>`
    select r.rolsuper or r.rolbypassrls as bypass from pg_catalog.pg_roles r where r.rolname = current_user`.execute(db);
  return rows[0]?.bypass === true;
}

/**
 * Verify must see every row the service sees. Row security shows a role only the rows its
 * policies let through, so whoever owns a table could hide a forged row from the auditor alone;
 * refused unless the role bypasses row security. Rewrite rules on an append-only table have no
 * business there (one can turn the service's inserts into something else), so they are refused
 * whoever verifies.
 */
async function refuseFilteredReads(db: Db, rel: Relation, name: string, bypassesRowSecurity: boolean): Promise<void> {
  const { rows } = await sql<{ row_security: boolean; policies: number; rules: string | null }>`
    select c.relrowsecurity or c.relforcerowsecurity as row_security,
      (select pg_catalog.count(*) from pg_catalog.pg_policy p where p.polrelid = c.oid)::int as policies,
      (select pg_catalog.string_agg(r.rulename::pg_catalog.text, ', ') from pg_catalog.pg_rewrite r where r.ev_class = c.oid and r.rulename <> '_RETURN') as rules
    from pg_catalog.pg_class c where c.oid = ${rel.oid}::pg_catalog.oid`.execute(db);
  const found = rows[0];
  if (found?.rules) {
    throw new VerifyRefused("rewrite_rules", `audit verify: ${name} has rewrite rules (${found.rules}); an audit table has none: drop them to verify`);
  }
  if (found && (found.row_security || found.policies > 0) && !bypassesRowSecurity) {
    throw new VerifyRefused(
      "row_security",
      `audit verify: ${name} has row security ${found.row_security ? "enabled" : "policies"}, which may hide rows from this role: ` +
        `verify as a role with BYPASSRLS, or disable row security and drop its policies`,
    );
  }
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
const equals = sql.raw("operator(pg_catalog.=)");

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

/**
 * The canonical row leaves out SQL NULL and JSON `null` alike, so the sealed digest cannot tell
 * them apart and the schema's owner could turn one into the other under a sealed row. The service
 * writes SQL NULL for an absent value, so verify reports every JSON `null` (`json_null`). Every
 * json and jsonb column is looked at, NOT NULL or not: the catalog's NOT NULL is the owner's to
 * set, after turning every SQL NULL of a column into JSON `null`, or to drop. `json_typeof` reads
 * a json value as parsed (`' null '` is JSON `null`).
 */
function jsonNullsOf(columns: Column[]): RawBuilder<string[]> {
  const named = columns.flatMap((c) => {
    const value = sql.id("t", c.name);
    if (c.kind === "jsonb") return [sql`case when pg_catalog.jsonb_typeof(${value}) ${equals} 'null' then ${sql.lit(c.name)} end`];
    if (c.kind === "json") return [sql`case when pg_catalog.json_typeof(${value}) ${equals} 'null' then ${sql.lit(c.name)} end`];
    return [];
  });
  if (named.length === 0) return sql`'[]'::pg_catalog.jsonb`;
  return sql`pg_catalog.to_jsonb(pg_catalog.array_remove(array[${sql.join(named)}]::pg_catalog.text[], null))`;
}
