import { sql, type Kysely } from "kysely";

/**
 * `decisions` becomes a table partitioned by month of `decided_at` (declarative partitioning), so
 * that a lookup by time touches one month and old months can be archived by detaching them.
 *
 * - Every existing row is copied with its `id` and `seq`; the identity sequence continues after them.
 * - One partition per UTC month, named `decisions_YYYY_MM`, created from the oldest row's month
 *   to three months ahead, plus `decisions_default` for rows outside every monthly partition (a
 *   clock far off must not fail a decision). `decisions_ensure_partitions(n)` creates the months
 *   up to n ahead; the service calls it at start and daily (it runs as the table's owner, so a
 *   service connected as the writer role can call it without being allowed to create tables).
 * - The append-only triggers stay: UPDATE and DELETE through the row trigger (cloned to every
 *   partition), TRUNCATE through a statement trigger on the parent and on each partition.
 * - A unique key on a partitioned table must contain the partition key, so `id` is unique with
 *   `decided_at` and the two foreign keys that pointed at `decisions.id` (a replay's `replay_of`, a
 *   charge's `decision_id`) become insert-time checks by trigger. A foreign key would also forbid
 *   detaching a month that charges refer to, and archiving must stay possible.
 * - `written_xid` is the writing transaction's id: the sealer's bookmark (see 20261122T1000_audit_3_chain).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter index decisions_pkey rename to decisions_unpartitioned_pkey`.execute(db);
  await sql`
    create table decisions_partitioned (
      id uuid not null,
      seq bigint generated always as identity not null,
      decided_at timestamptz not null,
      transaction_name text not null,
      vault text not null,
      decision text not null check (decision in ('allow', 'deny', 'defer')),
      sign_transaction boolean,
      http_status integer not null,
      replayed boolean not null default false,
      replay_of uuid,
      policy_version text not null,
      policy_digest text not null,
      matched_rules jsonb not null,
      reasons jsonb not null,
      facts jsonb not null,
      transaction jsonb not null,
      content_digest text not null,
      request_id text not null,
      duration_ms double precision not null,
      written_xid xid8 not null default pg_current_xact_id(),
      constraint decisions_pkey primary key (id, decided_at),
      constraint decisions_sign_matches_decision check (
        (decision = 'defer' and sign_transaction is null) or (decision = 'allow' and sign_transaction) or (decision = 'deny' and not sign_transaction))
    ) partition by range (decided_at)`.execute(db);
  await sql`create table decisions_default partition of decisions_partitioned default`.execute(db);

  await sql`alter table velocity_charges drop constraint if exists velocity_charges_decision_id_fkey`.execute(db);
  await sql`alter table decisions drop constraint if exists decisions_replay_of_fkey`.execute(db);
  await createMonths(db);
  await sql`
    insert into decisions_partitioned (id, seq, decided_at, transaction_name, vault, decision, sign_transaction, http_status,
      replayed, replay_of, policy_version, policy_digest, matched_rules, reasons, facts, transaction, content_digest, request_id, duration_ms)
    overriding system value
    select id, seq, decided_at, transaction_name, vault, decision, sign_transaction, http_status,
      replayed, replay_of, policy_version, policy_digest, matched_rules, reasons, facts, transaction, content_digest, request_id, duration_ms
    from decisions order by seq`.execute(db);
  await sql`select setval(pg_get_serial_sequence('decisions_partitioned', 'seq'), coalesce(max(seq), 0) + 1, false) from decisions_partitioned`.execute(db);
  await sql`drop table decisions`.execute(db);
  await sql`alter table decisions_partitioned rename to decisions`.execute(db);
  await sql`alter sequence decisions_partitioned_seq_seq rename to decisions_seq_seq`.execute(db);

  await createIndexes(db);
  await createGuards(db);
  await sql`select decisions_ensure_partitions(3)`.execute(db);
}

/** The months the copied rows fall in, so none of them lands in the default partition. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function createMonths(db: Kysely<any>): Promise<void> {
  await sql`
    create function decisions_create_month(month date) returns boolean
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
      return true;
    end
    $$`.execute(db);
  // Until the rename, the parent is still called decisions_partitioned: create the copied months now.
  await sql`
    do $$
    declare m date;
    begin
      for m in select distinct date_trunc('month', decided_at at time zone 'UTC')::date from decisions loop
        execute format('create table %I partition of decisions_partitioned for values from (%L) to (%L)',
          'decisions_' || to_char(m, 'YYYY_MM'),
          (m::text || ' 00:00:00+00')::timestamptz,
          (((m + interval '1 month')::date)::text || ' 00:00:00+00')::timestamptz);
        execute format('create trigger %I before truncate on %I for each statement execute function countersign_refuse_change()',
          'decisions_' || to_char(m, 'YYYY_MM') || '_no_truncate', 'decisions_' || to_char(m, 'YYYY_MM'));
      end loop;
    end
    $$`.execute(db);
  await sql`create trigger decisions_default_no_truncate before truncate on decisions_default
    for each statement execute function countersign_refuse_change()`.execute(db);

  // Security definer: the service may run as the writer role, which cannot create tables. The
  // advisory lock keeps two replicas from racing; the lock timeout keeps a month's creation (it
  // locks the parent briefly) from queueing decisions behind it for long: it is retried next day.
  await sql`
    create function decisions_ensure_partitions(months_ahead integer) returns integer
    language plpgsql security definer set search_path = public, pg_temp set lock_timeout = '1s' as $$
    declare
      m date;
      created integer := 0;
      this_month date := date_trunc('month', now() at time zone 'UTC')::date;
    begin
      perform pg_advisory_xact_lock(hashtextextended('countersign:decisions-partitions', 0));
      for m in select generate_series(this_month, this_month + make_interval(months => greatest(months_ahead, 0)), interval '1 month')::date loop
        if decisions_create_month(m) then created := created + 1; end if;
      end loop;
      return created;
    end
    $$`.execute(db);
  await sql`revoke all on function decisions_ensure_partitions(integer) from public`.execute(db);
  await sql`revoke all on function decisions_create_month(date) from public`.execute(db);
}

/**
 * The idempotency lookup (name, first final decision by seq), replay and the views (time, vault and
 * time), the sealer (written_xid) and the timeline's replay links.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function createIndexes(db: Kysely<any>): Promise<void> {
  await sql`create index decisions_by_transaction on decisions (transaction_name, seq)`.execute(db);
  await sql`create index decisions_by_time on decisions (decided_at)`.execute(db);
  await sql`create index decisions_by_vault_time on decisions (vault, decided_at)`.execute(db);
  await sql`create index decisions_by_seq on decisions (seq)`.execute(db);
  await sql`create index decisions_by_written_xid on decisions (written_xid)`.execute(db);
  await sql`create index decisions_by_replay_of on decisions (replay_of) where replay_of is not null`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function createGuards(db: Kysely<any>): Promise<void> {
  await sql`create trigger decisions_append_only before update or delete on decisions
    for each row execute function countersign_refuse_change()`.execute(db);
  await sql`create trigger decisions_no_truncate before truncate on decisions
    for each statement execute function countersign_refuse_change()`.execute(db);

  // What the two foreign keys checked, at insert (rows never change or go away afterwards).
  await sql`
    create function decisions_replay_of_exists() returns trigger language plpgsql as $$
    begin
      if not exists (select 1 from decisions where id = new.replay_of) then
        raise exception 'decisions.replay_of % refers to no decision', new.replay_of using errcode = 'foreign_key_violation';
      end if;
      return new;
    end
    $$`.execute(db);
  await sql`create trigger decisions_replay_of_exists before insert on decisions
    for each row when (new.replay_of is not null) execute function decisions_replay_of_exists()`.execute(db);
  await sql`
    create function velocity_charges_decision_exists() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from inserted i where not exists (select 1 from decisions d where d.id = i.decision_id)) then
        raise exception 'velocity_charges.decision_id refers to no decision' using errcode = 'foreign_key_violation';
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`create trigger velocity_charges_decision_exists after insert on velocity_charges
    referencing new table as inserted for each statement execute function velocity_charges_decision_exists()`.execute(db);
}
