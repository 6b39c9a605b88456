import { sql, type Kysely } from "kysely";
import { up as twinsSealer } from "./20261125T0700_audit_seal_twins.js";

/**
 * Entry hash version 2: the row's time is in the entry hash. `audit_chain.row_time` decides what
 * `audit verify --from` takes as archived, and was not hashed, so the schema's owner could move an
 * entry's row_time before the cut and delete its row (found by a review). New entries carry
 *
 *   hash = sha256(utf8(jsonb_build_array(source, row_key, row_time, hex(row_digest), hex(prev_hash))::text))
 *
 * with row_time printed as jsonb prints a timestamptz with timezone = 'UTC'
 * (`"2026-11-25T08:00:00.123456+00:00"`), and `hash_version = 2`; the entries sealed before keep
 * version 1 (README "Integrity: the hash chain"). `audit_link_hash(source, row_key, row_time,
 * row_digest, prev_hash)` is version 2's definition; `audit_seal` computes it inline (the same
 * expression under its own pinned timezone), otherwise as in 20261125T0700_audit_seal_twins.
 * `hash_version` is not hashed: changing it makes the recorded hash wrong for the entry.
 * `audit verify` now checks every entry's hash and link from position 1, before the walk's start
 * too, so that the anchor stands for the row_time of every version 2 entry before it. The sealer
 * prints one timestamptz more per row than the 0.64 million instructions of
 * 20261124T0910_audit_seal_costs; not re-measured under callgrind.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table audit_chain add column hash_version smallint not null default 1
    constraint audit_chain_hash_version check (hash_version in (1, 2))`.execute(db);
  await sql`
    create function audit_link_hash(source text, row_key text, row_time timestamptz, row_digest bytea, prev_hash bytea) returns bytea
    language sql immutable strict set timezone = 'UTC'
    as $$ select sha256(convert_to(jsonb_build_array(source, row_key, row_time, encode(row_digest, 'hex'), encode(prev_hash, 'hex'))::text, 'UTF8')) $$`.execute(db);
  await sql`
    create or replace function audit_seal(max_rows integer) returns integer
    language plpgsql
    security definer
    set search_path = pg_catalog, public, pg_temp
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
      for r in execute 'select * from (select distinct on (source, row_key) * from (' || candidates || ') u'
        ' order by source, row_key, written_xid, row_time) d order by written_xid, row_time, source, row_key limit $2'
        using since, max_rows
      loop
        last_position := last_position + 1;
        positions := positions || last_position;
        sources := sources || r.source;
        row_keys := row_keys || r.row_key;
        row_times := row_times || r.row_time;
        row_digests := row_digests || r.row_digest;
        prev_hashes := prev_hashes || last_hash;
        -- Hash version 2: audit_link_hash(source, row_key, row_time, row_digest, prev_hash), inline (row_time prints in UTC: this function pins it).
        last_hash := sha256(convert_to(jsonb_build_array(r.source, r.row_key, r.row_time, encode(r.row_digest, 'hex'), encode(last_hash, 'hex'))::text, 'UTF8'));
        hashes := hashes || last_hash;
        linked := linked + 1;
      end loop;
      if linked > 0 then
        insert into audit_chain (position, source, row_key, row_time, row_digest, prev_hash, hash, sealed_at, hash_version)
          select p, s, k, t, d, ph, h, now(), 2 from unnest(positions, sources, row_keys, row_times, row_digests, prev_hashes, hashes) as e(p, s, k, t, d, ph, h);
        insert into audit_seals (sealed_at, horizon, first_position, last_position, last_hash)
          values (now(), case when linked < max_rows then horizon else since end, first_position, last_position, last_hash);
      end if;
      return linked;
    end
    $$`.execute(db);
}

/** Refused once an entry of version 2 exists: without the column, its hash would read as version 1's. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    do $$
    begin
      if exists (select 1 from audit_chain where hash_version = 2) then
        raise exception 'audit_chain holds entries of hash version 2: they cannot be verified without hash_version';
      end if;
    end
    $$`.execute(db);
  await twinsSealer(db);
  await sql`drop function audit_link_hash(text, text, timestamptz, bytea, bytea)`.execute(db);
  await sql`alter table audit_chain drop column hash_version`.execute(db);
}
