import { sql, type Kysely } from "kysely";

/**
 * What a decision's write costs the server, cut where a profile of the SQL ceiling (perf on the
 * Postgres backends under bench/decision-sql.ts's replay) showed work that bought nothing:
 *
 * - `velocity_buckets_aligned` called the SQL function `velocity_bucket_start`. Postgres plans a
 *   table's CHECK expressions again for every INSERT statement, and inlining a SQL function means
 *   parsing its body: a SQL parse per bucket upsert. The check now calls `date_bin` itself (the
 *   same expression, so every existing row still passes).
 * - The decision row's jsonb columns (trace, facts, snapshot, ...) are compressed with lz4 instead
 *   of pglz where the server has lz4 (PostgreSQL 14+ built with it; PGlite keeps pglz): pglz was
 *   the largest single function in the profile. New monthly partitions inherit the setting from
 *   the parent; existing ones are set here. Rows already written keep their compression.
 * - `countersign_decision_write` runs the review-actions insert only when there are actions (an
 *   empty INSERT still starts an executor and opens the table and its indexes), and writes the
 *   velocity groups in the same statement as the charges and buckets (one executor, not two).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table velocity_buckets drop constraint velocity_buckets_aligned`.execute(db);
  await sql`alter table velocity_buckets add constraint velocity_buckets_aligned
    check (bucket_start = date_bin(make_interval(secs => width_seconds), bucket_start, timestamptz '1970-01-01T00:00:00Z'))`.execute(db);
  await setDecisionCompression(db, "lz4");
  await sql`
    create or replace function countersign_decision_write(args jsonb) returns void language plpgsql as $$
    begin
      insert into decisions (
        id, decided_at, transaction_name, vault, decision, sign_transaction, http_status, replayed, replay_of,
        policy_version, policy_digest, matched_rules, reasons, facts, transaction, content_digest, request_id,
        duration_ms, trace, velocity_windows, shadow_policy_version, shadow_policy_digest, shadow_decision,
        shadow_matched_rules, shadow_error)
      select
        id, decided_at, transaction_name, vault, decision, sign_transaction, http_status, replayed, replay_of,
        policy_version, policy_digest, matched_rules, reasons, facts, transaction, content_digest, request_id,
        duration_ms, trace, velocity_windows, shadow_policy_version, shadow_policy_digest, shadow_decision,
        shadow_matched_rules, shadow_error
      from jsonb_populate_record(null::decisions, args->'decision');

      if args->'review' is not null and args->'review' <> 'null'::jsonb then
        insert into reviews (id, transaction_name, vault, content_digest, opened_at, expires_at, opened_by, initiator, requirements, explanation)
        select id, transaction_name, vault, content_digest, opened_at, expires_at, opened_by, initiator, requirements, explanation
        from jsonb_populate_record(null::reviews, args->'review');
      end if;

      if jsonb_array_length(coalesce(args->'actions', '[]'::jsonb)) > 0 then
        insert into review_actions (id, at, transaction_name, content_digest, identity, action, "group", comment)
        select id, at, transaction_name, content_digest, identity, action, "group", comment
        from jsonb_populate_recordset(null::review_actions, args->'actions');
      end if;

      if jsonb_array_length(coalesce(args->'charges', '[]'::jsonb)) > 0 then
        with known as (
          insert into velocity_groups (group_hash, group_key, first_charged_at)
          select decode(g.hash, 'hex'), g.key, g.at
          from jsonb_to_recordset(args->'groups') as g(hash text, key text, at timestamptz)
          on conflict (group_hash) do nothing
        ), input as (
          select c.decision_id, c.transaction_name, c.vault, c.transfer_index, decode(c.hash, 'hex') as group_hash, c.amount, c.charged_at
          from jsonb_to_recordset(args->'charges')
            as c(decision_id uuid, transaction_name text, vault text, transfer_index int, hash text, amount numeric, charged_at timestamptz)
        ), charged as (
          insert into velocity_charges (decision_id, transaction_name, vault, transfer_index, group_hash, amount, charged_at)
          select decision_id, transaction_name, vault, transfer_index, group_hash, amount, charged_at from input
        )
        insert into velocity_buckets as b (group_hash, width_seconds, bucket_start, amount, count)
        select i.group_hash, w.width::int, velocity_bucket_start(w.width::int, i.charged_at), sum(coalesce(i.amount, 0)), count(*)
        from input i cross join jsonb_array_elements_text(args->'widths') as w(width)
        group by 1, 2, 3
        on conflict (group_hash, width_seconds, bucket_start)
          do update set amount = b.amount + excluded.amount, count = b.count + excluded.count;
      end if;
    end $$`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`alter table velocity_buckets drop constraint velocity_buckets_aligned`.execute(db);
  await sql`alter table velocity_buckets add constraint velocity_buckets_aligned
    check (bucket_start = velocity_bucket_start(width_seconds, bucket_start))`.execute(db);
  await setDecisionCompression(db, "pglz");
  // countersign_decision_write stays as it is: it writes exactly the rows the earlier one did.
}

/** Every jsonb column of `decisions` and of each existing partition, when the server offers `method`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function setDecisionCompression(db: Kysely<any>, method: "lz4" | "pglz"): Promise<void> {
  await sql`
    do $$
    declare
      tbl regclass;
      col name;
    begin
      if not exists (select 1 from pg_settings where name = 'default_toast_compression' and ${sql.lit(method)} = any (enumvals)) then
        return;
      end if;
      for tbl in select 'decisions'::regclass union all select inhrelid::regclass from pg_inherits where inhparent = 'decisions'::regclass loop
        for col in select attname from pg_attribute where attrelid = tbl and atttypid = 'jsonb'::regtype and attnum > 0 and not attisdropped loop
          execute format('alter table %s alter column %I set compression ${sql.raw(method)}', tbl, col);
        end loop;
      end loop;
    end $$`.execute(db);
}
