import { sql, type Kysely } from "kysely";

/**
 * The writer inserts audit rows but chooses neither their `seq` nor their `written_xid`: it gets
 * INSERT on every other column of each chained table instead of on the whole table (README
 * "Database roles").
 *
 * - `seq` orders a transaction's deliveries: the decision read answers with the final decision of
 *   lowest `seq`. `generated always` alone does not stop `insert … overriding system value`, which
 *   needs no privilege beyond INSERT; so a writer could slip a row with a sealed decision's id and
 *   `seq` 0 in front of it, and a denied transaction was signed on its next delivery.
 * - `written_xid` is the sealer's bookmark: a forged one kept a row from ever being sealed.
 *
 * Column privileges are checked when each INSERT starts, per inserted column; nothing is added per
 * row (no trigger, no index). `audit_writer_insert_columns(table)` sets them from the catalog; a
 * migration that adds a column to a chained table calls it again (the writer could not fill the new
 * column otherwise), and `audit_chain_register` calls it for a new table.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function audit_writer_insert_columns(tbl regclass) returns void
    language plpgsql set search_path = pg_catalog, public, pg_temp as $$
    declare columns text;
    begin
      if not exists (select 1 from pg_roles where rolname = 'countersign_writer') then return; end if;
      select string_agg(quote_ident(a.attname), ', ' order by a.attnum) into columns
        from pg_attribute a
        where a.attrelid = tbl and a.attnum > 0 and not a.attisdropped and a.attidentity <> 'a' and a.attname <> 'written_xid';
      execute format('revoke insert on %s from countersign_writer', tbl);
      execute format('grant insert (%s) on %s to countersign_writer', columns, tbl);
    end
    $$`.execute(db);
  await sql`revoke all on function audit_writer_insert_columns(regclass) from public`.execute(db);
  await registerFunction(db, sql.raw("perform audit_writer_insert_columns(tbl);"));
  await sql`select audit_writer_insert_columns(source::regclass) from audit_sources`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await registerFunction(db, sql.raw("execute format('grant insert on %s to countersign_writer', tbl);"));
  await sql`
    do $$
    declare s text;
    begin
      if not exists (select 1 from pg_roles where rolname = 'countersign_writer') then return; end if;
      for s in select source from audit_sources loop
        execute format('grant insert on %s to countersign_writer', s::regclass);
      end loop;
    end
    $$`.execute(db);
  await sql`drop function audit_writer_insert_columns(regclass)`.execute(db);
}

/** `audit_chain_register` of 20261122T1000_audit_3_chain, with `writerInsert` giving the writer its INSERT. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function registerFunction(db: Kysely<any>, writerInsert: ReturnType<typeof sql.raw>): Promise<void> {
  await sql`
    create or replace function audit_chain_register(source text, key_column text, time_column text) returns void
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
        execute format('grant select on %s to countersign_writer', tbl);
        ${writerInsert}
      end if;
      if exists (select 1 from pg_roles where rolname = 'countersign_auditor') then
        execute format('grant select on %s to countersign_auditor', tbl);
      end if;
      insert into audit_sources (source, key_column, key_type, time_column) values (source, key_column, key_type, time_column)
        on conflict on constraint audit_sources_pkey do nothing;
    end
    $$`.execute(db);
}
