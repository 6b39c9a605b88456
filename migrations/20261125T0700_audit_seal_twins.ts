import { sql, type Kysely } from "kysely";

/**
 * Twins do not stop the sealer. `decisions` is unique on (id, decided_at) only (its partitioning
 * requires the partition column in every key), so the writer may insert two rows with one id and
 * different times. Both were candidates of one batch, the batch's INSERT hit `audit_chain_row_once`
 * and the whole batch rolled back, on every tick for good (append-only rows cannot be removed): no
 * decision was sealed any more.
 *
 * `audit_seal` now takes one row per (source, key) into a batch: the one written first (then the
 * earlier dated). The other is never sealed, since the chain holds its key; `audit verify` names it
 * (two rows carry the key). Same function otherwise (20261124T0910_audit_seal_costs), with the
 * rights and search_path of 20261124T2100_audit_writer_rights, which CREATE OR REPLACE would reset.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sealFunction(db, sql.raw(`'select * from (select distinct on (source, row_key) * from (' || candidates || ') u'
        ' order by source, row_key, written_xid, row_time) d order by written_xid, row_time, source, row_key limit $2'`));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sealFunction(db, sql.raw(`'select * from (' || candidates || ') u order by written_xid, row_time, source, row_key limit $2'`));
}

/** `audit_seal` of 20261124T0910_audit_seal_costs, reading its batch with `batchQuery` (a plpgsql text expression over `candidates`). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function sealFunction(db: Kysely<any>, batchQuery: ReturnType<typeof sql.raw>): Promise<void> {
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
      for r in execute ${batchQuery}
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
