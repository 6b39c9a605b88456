import { sql, type Kysely } from "kysely";

/**
 * The writer role writes audit rows, never the chain's own bookkeeping (README "Database roles"):
 *
 * - `audit_seal` runs with its owner's rights (SECURITY DEFINER, search_path pinned with
 *   pg_catalog first and pg_temp last), so the writer no longer needs, and no longer has, INSERT on
 *   `audit_sources`, `audit_chain` or `audit_seals`. With INSERT on `audit_sources` the writer could
 *   register a source the sealer cannot read (sealing stopped for good); with INSERT on
 *   `audit_seals` it could forge the latest seal that verify measures "inserted" rows against.
 * - The default privileges of 20261122T1000_audit_2_roles give the writer UPDATE and DELETE on every
 *   table created later by the owner, which includes the monthly partitions `decisions_ensure_partitions`
 *   creates and the audit views. A partition is written through `decisions`, whose privileges are
 *   the ones checked, so the writer gets nothing on a partition; on a view, SELECT only.
 * - `decisions_ensure_partitions(n)` creates at most twelve months ahead: the writer may call it, and
 *   an unbounded n was a way to fill the catalog with empty partitions.
 */
const MAX_MONTHS_AHEAD = 12;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter function audit_seal(integer) security definer set search_path = pg_catalog, public, pg_temp`.execute(db);
  await createMonthFunction(db, true);
  await ensurePartitionsFunction(db, MAX_MONTHS_AHEAD);
  await sql`
    do $$
    declare rel regclass;
    begin
      if not exists (select 1 from pg_roles where rolname = 'countersign_writer') then return; end if;
      revoke insert, update, delete, truncate on audit_sources, audit_chain, audit_seals from countersign_writer;
      for rel in select i.inhrelid::regclass from pg_inherits i where i.inhparent = 'decisions'::regclass loop
        execute format('revoke all on %s from countersign_writer', rel);
      end loop;
      for rel in select c.oid::regclass from pg_class c
        where c.relkind in ('v', 'm') and c.relnamespace = 'public'::regnamespace and pg_has_role(c.relowner, 'usage') loop
        execute format('revoke insert, update, delete, truncate on %s from countersign_writer', rel);
      end loop;
    end
    $$`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter function audit_seal(integer) security invoker set search_path = public, pg_temp`.execute(db);
  await createMonthFunction(db, false);
  await ensurePartitionsFunction(db, null);
  await sql`
    do $$
    begin
      if exists (select 1 from pg_roles where rolname = 'countersign_writer') then
        grant insert on audit_chain, audit_seals to countersign_writer;
      end if;
    end
    $$`.execute(db);
}

/** `decisions_create_month` of 20261122T1000_audit_1_partitions; with `narrow`, the new partition grants the writer nothing. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function createMonthFunction(db: Kysely<any>, narrow: boolean): Promise<void> {
  const revoke = narrow
    ? sql.raw(`if exists (select 1 from pg_roles where rolname = 'countersign_writer') then
        execute format('revoke all on %I from countersign_writer', name);
      end if;`)
    : sql.raw("");
  await sql`
    create or replace function decisions_create_month(month date) returns boolean
    language plpgsql set search_path = public, pg_temp as $$
    declare
      name text := 'decisions_' || to_char(month, 'YYYY_MM');
      first timestamptz := (date_trunc('month', month)::date::text || ' 00:00:00+00')::timestamptz;
      next timestamptz := ((date_trunc('month', month) + interval '1 month')::date::text || ' 00:00:00+00')::timestamptz;
    begin
      if to_regclass(name) is not null then return false; end if;
      -- A month that rows already reached through the default partition stays there: moving them
      -- out would mean deleting them from an append-only table.
      if exists (select 1 from decisions_default where decided_at >= first and decided_at < next) then return false; end if;
      execute format('create table %I partition of decisions for values from (%L) to (%L)', name, first, next);
      execute format('create trigger %I before truncate on %I for each statement execute function countersign_refuse_change()',
        name || '_no_truncate', name);
      ${revoke}
      return true;
    end
    $$`.execute(db);
}

/** `decisions_ensure_partitions` of 20261122T1000_audit_1_partitions, with at most `cap` months ahead (null: no cap). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function ensurePartitionsFunction(db: Kysely<any>, cap: number | null): Promise<void> {
  const ahead = cap === null ? sql.raw("greatest(months_ahead, 0)") : sql.raw(`least(greatest(months_ahead, 0), ${cap})`);
  await sql`
    create or replace function decisions_ensure_partitions(months_ahead integer) returns integer
    language plpgsql security definer set search_path = public, pg_temp set lock_timeout = '1s' as $$
    declare
      m date;
      created integer := 0;
      this_month date := date_trunc('month', now() at time zone 'UTC')::date;
    begin
      perform pg_advisory_xact_lock(hashtextextended('countersign:decisions-partitions', 0));
      for m in select generate_series(this_month, this_month + make_interval(months => ${ahead}), interval '1 month')::date loop
        if decisions_create_month(m) then created := created + 1; end if;
      end loop;
      return created;
    end
    $$`.execute(db);
}
