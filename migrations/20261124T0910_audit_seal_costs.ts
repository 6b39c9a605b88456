import { sql, type Kysely } from "kysely";

/**
 * The sealer, same chain, under two fifths of the work per row. A callgrind count of a backend
 * sealing decision rows put it at ~1.7 million instructions a row — nearly half again what the
 * decision's own SQL costs — two thirds of it in `audit_canonical_row`, which builds the row's
 * jsonb three times over (`to_jsonb`, `- 'written_xid'`, then `jsonb_each` into
 * `jsonb_object_agg` to drop the nulls) under four SET clauses, and most of the rest in one INSERT
 * per chain entry.
 *
 * `audit_seal` now (0.64 million instructions a row; README "What a decision costs"):
 * - pins the printing settings once for the whole batch (its own SET clauses) instead of per row;
 * - prints each row's canonical text column by column, without building its jsonb at all: the
 *   present columns as `"key": value` in jsonb's key order, each value printed as `to_jsonb(t)`
 *   holds it (a jsonb column as its own text). The expression is written per table from the
 *   catalog when the batch starts (`audit_canonical_text_sql`). Its text, and the digest, are the
 *   ones `audit_canonical_row` gives (README "Integrity: the hash chain"; checked row by row, and
 *   for columns of every type, in test/audit/seal-digest.test.ts);
 * - writes the batch's chain entries in one INSERT.
 *
 * `audit_canonical_row`, `audit_row_digest` and `audit_link_hash` are unchanged: they remain the
 * definition that `countersign audit verify` and the README's SQL recompute.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function audit_canonical_text_sql(source text) returns text
    language sql stable set search_path = public, pg_temp as $$
      -- An expression over a row t of source that prints what audit_canonical_row(t) prints,
      -- without building the row's jsonb: '{', the present columns as '"key": value' in jsonb's
      -- key order (shorter keys first, then bytewise) joined by ', ', then '}'. A column whose
      -- value prints as JSON null (SQL NULL in any column; JSON null in a json or jsonb column) is
      -- a NULL element, which array_to_string leaves out; written_xid is never there. A jsonb value
      -- prints as itself, a json value as its jsonb, any other as to_jsonb of it: each is what
      -- to_jsonb(t) holds under that key.
      select format('''{'' || array_to_string(array[%s]::text[], '', '') || ''}''', coalesce(string_agg(format(
          case coalesce(nullif(ty.typbasetype, 0), ty.oid)
            when 'jsonb'::regtype then 'case when jsonb_typeof(t.%1$I) <> ''null'' then %2$L || t.%1$I::text end'
            when 'json'::regtype then 'case when json_typeof(t.%1$I) <> ''null'' then %2$L || t.%1$I::jsonb::text end'
            else 'case when t.%1$I is not null then %2$L || to_jsonb(t.%1$I)::text end'
          end, a.attname, to_jsonb(a.attname::text)::text || ': '), ', '
          order by octet_length(a.attname::text), a.attname::text collate "C"), ''))
      from pg_attribute a join pg_type ty on ty.oid = a.atttypid
      where a.attrelid = source::regclass and a.attnum > 0 and not a.attisdropped and a.attname <> 'written_xid'
    $$`.execute(db);

  await sql`
    create or replace function audit_seal(max_rows integer) returns integer
    language plpgsql
    set search_path = public, pg_temp
    set timezone = 'UTC' set extra_float_digits = 1 set bytea_output = 'hex' set intervalstyle = 'postgres'
    as $$
    declare
      horizon xid8;
      since xid8;
      last_position bigint;
      last_hash bytea;
      first_position bigint;
      candidates text;
      r record;
      linked integer := 0;
      positions bigint[] := '{}';
      sources text[] := '{}';
      row_keys text[] := '{}';
      row_times timestamptz[] := '{}';
      row_digests bytea[] := '{}';
      prev_hashes bytea[] := '{}';
      hashes bytea[] := '{}';
    begin
      if not pg_try_advisory_xact_lock(hashtextextended('countersign:audit-sealer', 0)) then return -1; end if;
      horizon := pg_snapshot_xmin(pg_current_snapshot());
      select s.horizon into since from audit_seals s order by s.id desc limit 1;
      since := coalesce(since, '0'::xid8);
      select c.position, c.hash into last_position, last_hash from audit_chain c order by c.position desc limit 1;
      last_position := coalesce(last_position, 0);
      last_hash := coalesce(last_hash, decode(repeat('00', 32), 'hex'));
      first_position := last_position + 1;
      -- The row digest as audit_row_digest defines it, under this function's pinned settings.
      select string_agg(format(
          'select %L::text as source, t.%I::text as row_key, t.%I as row_time, t.written_xid,'
          ' sha256(convert_to(%s, ''UTF8'')) as row_digest'
          ' from %I t where t.written_xid >= $1'
          ' and not exists (select 1 from audit_chain c where c.source = %L and c.row_key = t.%I::text)',
          s.source, s.key_column, s.time_column, audit_canonical_text_sql(s.source), s.source, s.source, s.key_column), ' union all ' order by s.source)
        into candidates from audit_sources s;
      if candidates is null then return 0; end if;
      for r in execute 'select * from (' || candidates || ') u order by written_xid, row_time, source, row_key limit $2'
        using since, max_rows
      loop
        last_position := last_position + 1;
        positions := positions || last_position;
        sources := sources || r.source;
        row_keys := row_keys || r.row_key;
        row_times := row_times || r.row_time;
        row_digests := row_digests || r.row_digest;
        prev_hashes := prev_hashes || last_hash;
        last_hash := audit_link_hash(r.source, r.row_key, r.row_digest, last_hash);
        hashes := hashes || last_hash;
        linked := linked + 1;
      end loop;
      if linked > 0 then
        insert into audit_chain (position, source, row_key, row_time, row_digest, prev_hash, hash, sealed_at)
          select p, s, k, t, d, ph, h, now() from unnest(positions, sources, row_keys, row_times, row_digests, prev_hashes, hashes) as e(p, s, k, t, d, ph, h);
        insert into audit_seals (sealed_at, horizon, first_position, last_position, last_hash)
          values (now(), case when linked < max_rows then horizon else since end, first_position, last_position, last_hash);
      end if;
      return linked;
    end
    $$`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function audit_seal(max_rows integer) returns integer
    language plpgsql set search_path = public, pg_temp as $$
    declare
      horizon xid8;
      since xid8;
      last_position bigint;
      last_hash bytea;
      prev_hash bytea;
      first_position bigint;
      candidates text;
      r record;
      linked integer := 0;
    begin
      if not pg_try_advisory_xact_lock(hashtextextended('countersign:audit-sealer', 0)) then return -1; end if;
      horizon := pg_snapshot_xmin(pg_current_snapshot());
      select s.horizon into since from audit_seals s order by s.id desc limit 1;
      since := coalesce(since, '0'::xid8);
      select c.position, c.hash into last_position, last_hash from audit_chain c order by c.position desc limit 1;
      last_position := coalesce(last_position, 0);
      last_hash := coalesce(last_hash, decode(repeat('00', 32), 'hex'));
      first_position := last_position + 1;
      select string_agg(format(
          'select %L::text as source, t.%I::text as row_key, t.%I as row_time, t.written_xid, audit_row_digest(t) as row_digest'
          ' from %I t where t.written_xid >= $1'
          ' and not exists (select 1 from audit_chain c where c.source = %L and c.row_key = t.%I::text)',
          s.source, s.key_column, s.time_column, s.source, s.source, s.key_column), ' union all ' order by s.source)
        into candidates from audit_sources s;
      if candidates is null then return 0; end if;
      for r in execute 'select * from (' || candidates || ') u order by written_xid, row_time, source, row_key limit $2'
        using since, max_rows
      loop
        last_position := last_position + 1;
        prev_hash := last_hash;
        last_hash := audit_link_hash(r.source, r.row_key, r.row_digest, prev_hash);
        insert into audit_chain (position, source, row_key, row_time, row_digest, prev_hash, hash, sealed_at)
          values (last_position, r.source, r.row_key, r.row_time, r.row_digest, prev_hash, last_hash, now());
        linked := linked + 1;
      end loop;
      if linked > 0 then
        insert into audit_seals (sealed_at, horizon, first_position, last_position, last_hash)
          values (now(), case when linked < max_rows then horizon else since end, first_position, last_position, last_hash);
      end if;
      return linked;
    end
    $$`.execute(db);
  await sql`drop function if exists audit_canonical_text_sql(text)`.execute(db);
}
