import { sql, type Kysely } from "kysely";

/**
 * A lighter velocity ledger, and what pruning it needs (issue 13; measured with
 * bench/ledger-layout.ts, figures in src/velocity/README.md).
 *
 * - Bucket widths 1 min, 1 h and 1 day: the 1-second buckets go. Each allowed transfer then writes
 *   three bucket rows instead of four (the 1-second row was almost always a fresh INSERT, the
 *   costliest of them), and a window's exact edge reads at most a minute of charges instead of a
 *   second. Existing 1-second rows are deleted; the other widths' rows already hold the same
 *   charges, so every total is unchanged. The widths are written out, as in the velocity migration:
 *   a landed migration must not change when the code (`BUCKET_WIDTHS`) does.
 * - BRIN indexes on `velocity_buckets.bucket_start` and `velocity_charges.charged_at`: rows arrive
 *   in time order, so a few pages of index find the expired ones for the pruner without a btree
 *   on the write path.
 * - `velocity_prune(fine_before, charges_before, batch)`: deletes at most `batch` expired buckets
 *   and `batch` expired charges in the caller's transaction, if it wins the pruner's advisory lock
 *   (else -1). It is the only way to delete a charge: it runs as the ledger's owner and tells the
 *   history trigger so; the service's role loses DELETE on the charges and may only call it.
 *   It refuses to touch the last day (what the audit view `velocity_usage` reads).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`delete from velocity_buckets where width_seconds not in (60, 3600, 86400)`.execute(db);
  await sql`alter table velocity_buckets drop constraint velocity_buckets_width_seconds_check`.execute(db);
  await sql`alter table velocity_buckets add constraint velocity_buckets_width_seconds_check
    check (width_seconds in (60, 3600, 86400))`.execute(db);

  await sql`create index velocity_buckets_by_start on velocity_buckets using brin (bucket_start) with (autosummarize = on)`.execute(db);
  await sql`create index velocity_charges_by_time on velocity_charges using brin (charged_at) with (autosummarize = on)`.execute(db);

  await sql`
    create or replace function velocity_charges_guard() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and old.voided_at is null and new.voided_at is not null
         and (new.id, new.decision_id, new.transaction_name, new.vault, new.transfer_index, new.group_hash, new.amount, new.charged_at)
             is not distinct from
             (old.id, old.decision_id, old.transaction_name, old.vault, old.transfer_index, old.group_hash, old.amount, old.charged_at)
      then
        return new;
      end if;
      -- Set only inside velocity_prune, which only its owner's privileges can run.
      if tg_op = 'DELETE' and current_setting('countersign.velocity_prune', true) = 'on' then
        return old;
      end if;
      raise exception 'velocity_charges keeps its history: only setting voided_at once, or velocity_prune past the retention, is allowed (% refused)', tg_op
        using errcode = 'insufficient_privilege';
    end
    $$`.execute(db);

  await sql`
    create function velocity_prune(fine_before timestamptz, charges_before timestamptz, batch integer)
    returns integer
    language plpgsql security definer set search_path = public, pg_temp set lock_timeout = '1s' as $$
    declare
      buckets integer;
      charges integer;
    begin
      if batch is null or batch < 1 or batch > 50000 then
        raise exception 'velocity_prune: batch must be 1 to 50000' using errcode = 'invalid_parameter_value';
      end if;
      if fine_before is null or charges_before is null or fine_before > now() - interval '1 day'
         or charges_before > now() - interval '1 day' or charges_before > fine_before then
        raise exception 'velocity_prune: keeps at least the last day, and the charges and day buckets at least as long as the finer buckets'
          using errcode = 'invalid_parameter_value';
      end if;
      if not pg_try_advisory_xact_lock(hashtextextended('countersign:velocity-pruner', 0)) then return -1; end if;
      delete from velocity_buckets where ctid = any (array(
        select ctid from velocity_buckets
        -- A day bucket goes only once its whole day is past the charges' retention.
        where bucket_start < fine_before and (width_seconds < 86400 or bucket_start < charges_before - interval '1 day')
        limit batch));
      get diagnostics buckets = row_count;
      perform set_config('countersign.velocity_prune', 'on', true);
      delete from velocity_charges where ctid = any (array(
        select ctid from velocity_charges where charged_at < charges_before limit batch));
      get diagnostics charges = row_count;
      perform set_config('countersign.velocity_prune', 'off', true);
      return buckets + charges;
    end
    $$`.execute(db);
  await sql`revoke execute on function velocity_prune(timestamptz, timestamptz, integer) from public`.execute(db);
  await sql`
    do $$
    begin
      if exists (select 1 from pg_roles where rolname = 'countersign_writer') then
        revoke delete, truncate on velocity_charges from countersign_writer;
        grant execute on function velocity_prune(timestamptz, timestamptz, integer) to countersign_writer;
      end if;
    end
    $$`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function velocity_prune(timestamptz, timestamptz, integer)`.execute(db);
  await sql`drop index velocity_charges_by_time`.execute(db);
  await sql`drop index velocity_buckets_by_start`.execute(db);
  await sql`alter table velocity_buckets drop constraint velocity_buckets_width_seconds_check`.execute(db);
  // The 1-second buckets rebuilt from the live charges, as they stood.
  await sql`insert into velocity_buckets (group_hash, width_seconds, bucket_start, amount, count)
    select group_hash, 1, velocity_bucket_start(1, charged_at), sum(coalesce(amount, 0)), count(*)
    from velocity_charges where voided_at is null group by 1, 3`.execute(db);
  await sql`alter table velocity_buckets add constraint velocity_buckets_width_seconds_check
    check (width_seconds in (1, 60, 3600, 86400))`.execute(db);
}
