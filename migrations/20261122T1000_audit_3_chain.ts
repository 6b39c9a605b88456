import { sql, type Kysely } from "kysely";

/**
 * The hash chain over the audit rows (README "Audit trail integrity" defines it; keep the two in step).
 *
 * - `audit_sources`: the tables in the chain, each with its key and time column. A later
 *   migration adds its own table with `select audit_chain_register('review_actions', 'id', 'created_at')`.
 * - `audit_chain`: one entry per sealed row, in chain order (`position` 1, 2, …):
 *     row_digest = sha256(utf8(canonical row))       canonical row: audit_canonical_row()
 *     hash       = sha256(utf8(jsonb_build_array(source, row_key, hex(row_digest), hex(prev_hash))::text))
 *   with prev_hash the previous entry's hash (32 zero bytes before the first).
 * - `audit_seals`: one row per sealing batch: when, up to which position, and the horizon (every
 *   row written by a transaction older than it was visible to that batch, so it is sealed).
 *
 * Rows are written freely; `audit_seal()` links the committed, unsealed rows. One sealer at a time
 * (a transaction-scoped advisory lock), so any number of replicas can call it every second.
 * All three tables are append-only, like the rows they cover.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await createTables(db);
  await createHashing(db);
  await createRegistration(db);
  await createSealer(db);
  await sql`select audit_chain_register('decisions', 'id', 'decided_at')`.execute(db);
  await sql`select audit_chain_register('events', 'id', 'received_at')`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function createTables(db: Kysely<any>): Promise<void> {
  await sql`
    create table audit_sources (
      source text primary key,
      key_column text not null,
      key_type text not null,
      time_column text not null,
      registered_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table audit_chain (
      position bigint primary key check (position >= 1),
      source text not null references audit_sources (source),
      row_key text not null,
      row_time timestamptz not null,
      row_digest bytea not null check (octet_length(row_digest) = 32),
      prev_hash bytea not null check (octet_length(prev_hash) = 32),
      hash bytea not null check (octet_length(hash) = 32),
      sealed_at timestamptz not null,
      constraint audit_chain_row_once unique (source, row_key)
    )`.execute(db);
  await sql`create index audit_chain_by_sealed_at on audit_chain (sealed_at)`.execute(db);
  await sql`
    create table audit_seals (
      id bigint generated always as identity primary key,
      sealed_at timestamptz not null,
      horizon xid8 not null,
      first_position bigint not null,
      last_position bigint not null,
      last_hash bytea not null
    )`.execute(db);
  for (const table of ["audit_sources", "audit_chain", "audit_seals"]) {
    await sql`create trigger ${sql.raw(`${table}_append_only`)} before update or delete on ${sql.table(table)}
      for each row execute function countersign_refuse_change()`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_no_truncate`)} before truncate on ${sql.table(table)}
      for each statement execute function countersign_refuse_change()`.execute(db);
  }
}

/**
 * The canonical encoding of a row: the row as `to_jsonb` gives it, without the sealer's
 * bookkeeping column and without top-level nulls (so a nullable column added later leaves older
 * rows' digests as they were), as jsonb's text. Settings that change how a value prints are
 * pinned, so every session computes the same text.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function createHashing(db: Kysely<any>): Promise<void> {
  await sql`
    create function audit_canonical_row(r anyelement) returns jsonb language sql stable
    set timezone = 'UTC' set extra_float_digits = 1 set bytea_output = 'hex' set intervalstyle = 'postgres'
    as $$ select jsonb_object_agg(e.key, e.value) from jsonb_each(to_jsonb(r) - 'written_xid') e where e.value <> 'null'::jsonb $$`.execute(db);
  await sql`
    create function audit_row_digest(r anyelement) returns bytea language sql stable
    as $$ select sha256(convert_to(audit_canonical_row(r)::text, 'UTF8')) $$`.execute(db);
  await sql`
    create function audit_link_hash(source text, row_key text, row_digest bytea, prev_hash bytea) returns bytea
    language sql immutable strict
    as $$ select sha256(convert_to(jsonb_build_array(source, row_key, encode(row_digest, 'hex'), encode(prev_hash, 'hex'))::text, 'UTF8')) $$`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function createRegistration(db: Kysely<any>): Promise<void> {
  // Adds a table to the chain: the sealer's bookmark column and its index, append-only triggers
  // when the table has none, and the roles' privileges (writer: SELECT and INSERT only).
  await sql`
    create function audit_chain_register(source text, key_column text, time_column text) returns void
    language plpgsql set search_path = public, pg_temp as $$
    declare
      tbl regclass := source::regclass;
      key_type text;
    begin
      select format_type(a.atttypid, a.atttypmod) into key_type from pg_attribute a
        where a.attrelid = tbl and a.attname = key_column and not a.attisdropped;
      if key_type is null then raise exception 'audit_chain_register: % has no column %', source, key_column; end if;
      if not exists (select 1 from pg_attribute where attrelid = tbl and attname = time_column and not attisdropped) then
        raise exception 'audit_chain_register: % has no column %', source, time_column;
      end if;
      if not exists (select 1 from pg_attribute where attrelid = tbl and attname = 'written_xid' and not attisdropped) then
        execute format('alter table %s add column written_xid xid8 not null default pg_current_xact_id()', tbl);
      end if;
      execute format('create index if not exists %I on %s (written_xid)', source || '_by_written_xid', tbl);
      execute format('create index if not exists %I on %s (%I)', source || '_by_' || time_column, tbl, time_column);
      if not exists (select 1 from pg_trigger where tgrelid = tbl and tgname = source || '_append_only') then
        execute format('create trigger %I before update or delete on %s for each row execute function countersign_refuse_change()', source || '_append_only', tbl);
      end if;
      if not exists (select 1 from pg_trigger where tgrelid = tbl and tgname = source || '_no_truncate') then
        execute format('create trigger %I before truncate on %s for each statement execute function countersign_refuse_change()', source || '_no_truncate', tbl);
      end if;
      if exists (select 1 from pg_roles where rolname = 'countersign_writer') then
        execute format('revoke update, delete, truncate on %s from countersign_writer', tbl);
        execute format('grant select, insert on %s to countersign_writer', tbl);
      end if;
      if exists (select 1 from pg_roles where rolname = 'countersign_auditor') then
        execute format('grant select on %s to countersign_auditor', tbl);
      end if;
      insert into audit_sources (source, key_column, key_type, time_column) values (source, key_column, key_type, time_column)
        on conflict on constraint audit_sources_pkey do nothing;
    end
    $$`.execute(db);

  await sql`
    do $$
    begin
      if exists (select 1 from pg_roles where rolname = 'countersign_writer') then
        revoke update, delete, truncate on audit_sources, audit_chain, audit_seals from countersign_writer;
        grant select on audit_sources to countersign_writer;
        grant select, insert on audit_chain, audit_seals to countersign_writer;
      end if;
      if exists (select 1 from pg_roles where rolname = 'countersign_auditor') then
        grant select on audit_sources, audit_chain, audit_seals to countersign_auditor;
      end if;
    end
    $$`.execute(db);
}

/**
 * One sealing batch; returns the rows linked (-1 when another session is sealing). Candidates are
 * the rows written at or after the last batch's horizon that the chain does not hold yet: every
 * older row was already visible to that batch. Within a batch the order is (writing transaction,
 * row time, table, key). A full batch keeps the old horizon, so the next one looks again from there.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function createSealer(db: Kysely<any>): Promise<void> {
  await sql`
    create function audit_seal(max_rows integer) returns integer
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
  // Sealing is the writer's job: an auditor session must not extend the chain.
  await sql`revoke all on function audit_seal(integer) from public`.execute(db);
  await sql`
    do $$
    begin
      if exists (select 1 from pg_roles where rolname = 'countersign_writer') then
        grant execute on function audit_seal(integer) to countersign_writer;
      end if;
    end
    $$`.execute(db);
}
