import { sql, type Kysely } from "kysely";

/**
 * `velocity_voids`: every charge voided by hand (`countersign velocity void NAME --reason …`), in
 * the audit trail. A void frees window room, so it decides what the wallet may send next; it was
 * recorded only as `voided_at` on the charges, outside the hash chain, with no word of who voided
 * them or why. A void the platform's events cause is recorded already (`events`, `event_effects`).
 *
 * Each row: when, the transaction, how many charges it voided, the operator the command names
 * (`--by`, else the OS user that ran it), the reason, and the database user it ran as: the
 * server's `session_user`, set by a trigger whatever the insert names (as a column default alone,
 * found by a review, the writer's login could record a void as another database user's). Written in the void's own
 * transaction, so a void is never without its row. Chained and append-only like the other audit
 * tables (the writer may insert, never change); `transaction_timeline` shows it (`kind = 'void'`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table velocity_voids (
      id uuid primary key,
      seq bigint generated always as identity not null unique,
      at timestamptz not null,
      transaction_name text not null,
      charges integer not null check (charges > 0),
      operator text not null check (length(operator) between 1 and 200),
      reason text not null check (length(reason) between 1 and 2000),
      database_user text not null default session_user
    )`.execute(db);
  await sql`create index velocity_voids_by_transaction on velocity_voids (transaction_name, seq)`.execute(db);
  await sql`
    create function velocity_voids_database_user() returns trigger language plpgsql as $$
    begin
      new.database_user := session_user;
      return new;
    end
    $$`.execute(db);
  await sql`create trigger velocity_voids_database_user before insert on velocity_voids
    for each row execute function velocity_voids_database_user()`.execute(db);
  await sql`select audit_chain_register('velocity_voids', 'id', 'at')`.execute(db);
  await timelineWith(db, sql`
    union all
    select v.transaction_name, 'vaults/' || split_part(v.transaction_name, '/', 2), v.at, 'void', v.charges::text || ' charges voided',
      concat_ws(': ', v.operator, v.reason),
      'velocity_voids'::text, v.id::text, v.seq
    from velocity_voids v`);
}

/** `transaction_timeline` of 20261122T1200_reviews, with `more` branches after it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function timelineWith(db: Kysely<any>, more: ReturnType<typeof sql>): Promise<void> {
  await sql`
    create or replace view transaction_timeline as
    select d.transaction_name, d.vault, d.decided_at as at,
      case when d.replayed then 'repeat' when d.replay_of is not null then 'conflict' else 'decision' end as kind,
      d.decision as outcome, d.reasons ->> 0 as detail,
      'decisions'::text as source, d.id::text as row_key, d.seq
    from decisions d
    union all
    select e.resource, e.vault, e.received_at, 'event', coalesce(e.new_state, e.type), e.type,
      'events'::text, e.id, e.seq
    from events e
    where e.resource like 'vaults/%/transactions/%'
    union all
    select a.transaction_name, 'vaults/' || split_part(a.transaction_name, '/', 2), a.at, 'review', a.action,
      concat_ws(': ', a.identity, a.comment),
      'review_actions'::text, a.id::text, a.seq
    from review_actions a
    ${more}`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  // A view cannot lose a branch by `create or replace`: recreate it as it was, with its grants.
  await sql`drop view transaction_timeline`.execute(db);
  await timelineWith(db, sql``);
  await sql`
    do $$
    begin
      -- The owner's default privileges gave the writer INSERT, UPDATE and DELETE on the new view.
      if exists (select 1 from pg_roles where rolname = 'countersign_writer') then
        revoke all on transaction_timeline from countersign_writer;
        grant select on transaction_timeline to countersign_writer;
      end if;
      if exists (select 1 from pg_roles where rolname = 'countersign_auditor') then grant select on transaction_timeline to countersign_auditor; end if;
    end
    $$`.execute(db);
  // Only while it holds nothing: a down migration must not erase the trail it was part of.
  await sql`
    do $$
    begin
      if exists (select 1 from velocity_voids) then
        raise exception 'velocity_voids holds voids recorded in the audit trail: not dropped';
      end if;
    end
    $$`.execute(db);
  // The sealer reads every registered source: unregister it (append-only, so as its owner).
  await sql`alter table audit_sources disable trigger audit_sources_append_only`.execute(db);
  await sql`delete from audit_sources where source = 'velocity_voids'`.execute(db);
  await sql`alter table audit_sources enable trigger audit_sources_append_only`.execute(db);
  await sql`drop table velocity_voids`.execute(db);
  await sql`drop function velocity_voids_database_user()`.execute(db);
}
