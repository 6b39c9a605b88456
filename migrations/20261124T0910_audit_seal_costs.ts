import { sql, type Kysely } from "kysely";

/**
 * The sealer, same chain, a third of the work per row. A callgrind count of a backend sealing
 * decision rows put it at ~1.7 million instructions a row — nearly half again what the decision's
 * own SQL costs — two thirds of it in `audit_canonical_row`, which builds the row's jsonb three
 * times over (`to_jsonb`, `- 'written_xid'`, then `jsonb_each` into `jsonb_object_agg` to drop
 * the nulls) under four SET clauses, and most of the rest in one INSERT per chain entry.
 *
 * `audit_seal` now:
 * - pins the printing settings once for the whole batch (its own SET clauses) instead of per row;
 * - computes each row's canonical jsonb as `to_jsonb(t) - keys`, where `keys` is `written_xid` and
 *   the row's top-level keys whose value is null: SQL NULL in any column, or JSON null in a json
 *   or jsonb column. The expression is written per table from the catalog when the batch starts.
 *   A jsonb value keeps its pairs in one canonical order however it was built, so its text, and the
 *   digest, are the ones `audit_canonical_row` gives (README "Integrity: the hash chain"; checked
 *   row by row in test/audit/seal-digest.test.ts);
 * - writes the batch's chain entries in one INSERT.
 *
 * `audit_canonical_row`, `audit_row_digest` and `audit_link_hash` are unchanged: they remain the
 * definition that `countersign audit verify` and the README's SQL recompute.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace function audit_canonical_keys_sql(source text) returns text
    language sql stable set search_path = public, pg_temp as $$
      -- The text[] of keys to remove from to_jsonb(t) for a row t of source: written_xid and every
      -- column whose value prints as JSON null (a nullable column's SQL NULL; a json or jsonb
      -- column's JSON null, whether or not the column is nullable).
      select format('array_remove(array[%s''written_xid''], null::text)', coalesce(string_agg(format(
          case coalesce(nullif(ty.typbasetype, 0), ty.oid)
            when 'jsonb'::regtype then 'case when t.%1$I is null or jsonb_typeof(t.%1$I) = ''null'' then %1$L end'
            when 'json'::regtype then 'case when t.%1$I is null or json_typeof(t.%1$I) = ''null'' then %1$L end'
            else 'case when t.%1$I is null then %1$L end'
          end, a.attname), ', ' order by a.attnum) || ', ', ''))
      from pg_attribute a join pg_type ty on ty.oid = a.atttypid
      where a.attrelid = source::regclass and a.attnum > 0 and not a.attisdropped and a.attname <> 'written_xid'
        and (not a.attnotnull or coalesce(nullif(ty.typbasetype, 0), ty.oid) in ('json'::regtype, 'jsonb'::regtype))
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
          ' sha256(convert_to((to_jsonb(t) - %s)::text, ''UTF8'')) as row_digest'
          ' from %I t where t.written_xid >= $1'
          ' and not exists (select 1 from audit_chain c where c.source = %L and c.row_key = t.%I::text)',
          s.source, s.key_column, s.time_column, audit_canonical_keys_sql(s.source), s.source, s.source, s.key_column), ' union all ' order by s.source)
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
  await sql`drop function if exists audit_canonical_keys_sql(text)`.execute(db);
}
