import { sql, type Kysely } from "kysely";

/**
 * The database refuses to prune what a window in force still reads (README "The ledger's layout
 * and pruning"). Retention was a process setting: `serve` refused a window longer than its own
 * COUNTERSIGN_LEDGER_RETENTION, but another process (an operator's `velocity prune`, a replica
 * started with another value) could prune with a shorter one and cut a longer window short, which
 * then approved past its limit.
 *
 * - `velocity_window_claims`: each `serve` process claims the longest window of each bundle it has
 *   in force (live and shadow), before the bundle takes effect and then on a heartbeat. A claim
 *   counts until `lapses_at`, so a replica that died stops holding pruning back once it lapses.
 * - `velocity_window_claim(holder, window_seconds, lapse_seconds)`: the only way to write a claim.
 *   It only adds a claim or pushes its lapse later, never shortens or removes a live one; it takes
 *   the pruner's advisory lock, so a prune batch that read the claims before this one commits has
 *   finished deleting before the claimant's bundle reads anything.
 * - `velocity_prune_batch`, the pruner's batch, clamps its horizons to the longest live claim plus
 *   a day (the code's MARGIN_SECONDS), whatever it is asked, and says what it clamped. Fine
 *   buckets are clamped to at most 35 days of it (FINE_BUCKETS_KEPT_SECONDS): a longer window
 *   reads no fine bucket. Numbers are written out: a landed migration must not change when the
 *   code does. `velocity_prune` keeps its name and its answer (the count), as a call of it, for a
 *   process of the previous version pruning during a rolling upgrade.
 *
 * The writer role (the service) may read the claims and call the claim function, nothing else:
 * with DELETE or UPDATE it could erase a live claim and make a prune delete what a window reads.
 */
const PRUNER_LOCK = sql.raw(`hashtextextended('countersign:velocity-pruner', 0)`);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create table velocity_window_claims (
      holder text not null check (length(holder) between 1 and 200),
      window_seconds integer not null check (window_seconds between 1 and 316224000),
      claimed_at timestamptz not null default now(),
      lapses_at timestamptz not null,
      primary key (holder, window_seconds)
    )`.execute(db);

  await sql`
    create function velocity_window_claim(holder text, window_seconds integer, lapse_seconds integer)
    returns timestamptz
    language plpgsql security definer set search_path = pg_catalog, public, pg_temp set lock_timeout = '30s' as $$
    declare
      lapses timestamptz;
    begin
      if holder is null or length(holder) not between 1 and 200 then
        raise exception 'velocity_window_claim: holder must be 1 to 200 characters' using errcode = 'invalid_parameter_value';
      end if;
      if window_seconds is null or window_seconds not between 1 and 316224000 then
        raise exception 'velocity_window_claim: window must be 1 s to 3660 d' using errcode = 'invalid_parameter_value';
      end if;
      -- At least ten minutes: a claim that lapses before the next heartbeat protects nothing.
      if lapse_seconds is null or lapse_seconds not between 600 and 7776000 then
        raise exception 'velocity_window_claim: lapse must be 10 min to 90 d' using errcode = 'invalid_parameter_value';
      end if;
      -- Waits for a prune batch in flight (each is short): the next one reads this claim.
      perform pg_advisory_xact_lock(${PRUNER_LOCK});
      insert into velocity_window_claims as c (holder, window_seconds, claimed_at, lapses_at)
        values (holder, window_seconds, now(), now() + make_interval(secs => lapse_seconds))
        on conflict on constraint velocity_window_claims_pkey do update
          -- Never earlier: whoever calls this cannot shorten a claim another process relies on.
          set claimed_at = now(), lapses_at = greatest(c.lapses_at, excluded.lapses_at)
        returning c.lapses_at into lapses;
      return lapses;
    end
    $$`.execute(db);

  await sql`
    create function velocity_prune_batch(fine_before timestamptz, charges_before timestamptz, batch integer)
    returns table (deleted integer, fine_kept_before timestamptz, charges_kept_before timestamptz, claimed_window_seconds integer, clamped boolean)
    language plpgsql security definer set search_path = public, pg_temp set lock_timeout = '1s' as $$
    declare
      buckets integer;
      charges integer;
      longest integer;
    begin
      if batch is null or batch < 1 or batch > 50000 then
        raise exception 'velocity_prune: batch must be 1 to 50000' using errcode = 'invalid_parameter_value';
      end if;
      if fine_before is null or charges_before is null or fine_before > now() - interval '1 day'
         or charges_before > now() - interval '1 day' or charges_before > fine_before then
        raise exception 'velocity_prune: keeps at least the last day, and the charges and day buckets at least as long as the finer buckets'
          using errcode = 'invalid_parameter_value';
      end if;
      if not pg_try_advisory_xact_lock(${PRUNER_LOCK}) then
        return query select -1, null::timestamptz, null::timestamptz, null::integer, false;
        return;
      end if;
      -- A lapsed claim belongs to a process that stopped refreshing it (it died, or lost the database).
      delete from velocity_window_claims where lapses_at <= now();
      select max(c.window_seconds) into longest from velocity_window_claims c;
      clamped := false;
      if longest is not null then
        -- The longest window in force reads back to now − longest; a day more for clocks and late voids.
        if charges_before > now() - make_interval(secs => longest) - interval '1 day' then
          charges_before := now() - make_interval(secs => longest) - interval '1 day';
          clamped := true;
        end if;
        if fine_before > now() - make_interval(secs => least(longest, 3024000)) - interval '1 day' then
          fine_before := now() - make_interval(secs => least(longest, 3024000)) - interval '1 day';
          clamped := true;
        end if;
      end if;
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
      return query select buckets + charges, fine_before, charges_before, longest, clamped;
    end
    $$`.execute(db);

  // The old name and answer stay, as a batch that reports its count alone: a process of the previous
  // version pruning during a rolling upgrade reads an integer, as it did, and is clamped too.
  await sql`
    create or replace function velocity_prune(fine_before timestamptz, charges_before timestamptz, batch integer)
    returns integer language sql as $$ select deleted from velocity_prune_batch(fine_before, charges_before, batch) $$`.execute(db);
  await sql`revoke execute on function velocity_prune(timestamptz, timestamptz, integer) from public`.execute(db);
  await sql`revoke execute on function velocity_prune_batch(timestamptz, timestamptz, integer) from public`.execute(db);
  await sql`revoke execute on function velocity_window_claim(text, integer, integer) from public`.execute(db);
  await sql`
    do $$
    begin
      if exists (select 1 from pg_roles where rolname = 'countersign_writer') then
        -- The default privileges (20261122T1000_audit_2_roles) gave it UPDATE and DELETE: claims go through the function.
        revoke all on velocity_window_claims from countersign_writer;
        grant select on velocity_window_claims to countersign_writer;
        grant execute on function velocity_prune(timestamptz, timestamptz, integer) to countersign_writer;
        grant execute on function velocity_prune_batch(timestamptz, timestamptz, integer) to countersign_writer;
        grant execute on function velocity_window_claim(text, integer, integer) to countersign_writer;
      end if;
      if exists (select 1 from pg_roles where rolname = 'countersign_auditor') then
        grant select on velocity_window_claims to countersign_auditor;
      end if;
    end
    $$`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function velocity_prune(timestamptz, timestamptz, integer)`.execute(db);
  await sql`drop function velocity_prune_batch(timestamptz, timestamptz, integer)`.execute(db);
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
      if not pg_try_advisory_xact_lock(${PRUNER_LOCK}) then return -1; end if;
      delete from velocity_buckets where ctid = any (array(
        select ctid from velocity_buckets
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
        grant execute on function velocity_prune(timestamptz, timestamptz, integer) to countersign_writer;
      end if;
    end
    $$`.execute(db);
  await sql`drop function velocity_window_claim(text, integer, integer)`.execute(db);
  await sql`drop table velocity_window_claims`.execute(db);
}
