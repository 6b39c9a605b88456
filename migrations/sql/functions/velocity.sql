-- The start of the epoch-aligned bucket of width_seconds that holds at.
CREATE OR REPLACE FUNCTION public.velocity_bucket_start(width_seconds integer, at timestamp with time zone) RETURNS timestamp with time zone
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ select date_bin(make_interval(secs => width_seconds), at, timestamptz '1970-01-01T00:00:00Z') $$;

-- A charge refers to a decision that exists (no foreign key, see decisions_reference_exists): looked up
-- by name in final_decisions first, every month only for a charge not found there.
CREATE OR REPLACE FUNCTION public.velocity_charges_decision_exists() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    begin

      if exists (select 1 from inserted i where not exists (
          select 1 from final_decisions f where f.transaction_name = i.transaction_name and f.decision_id = i.decision_id)) then
        -- Not found by name (never a charge the service writes): search every month.
        if exists (select 1 from inserted i where not exists (select 1 from decisions d where d.id = i.decision_id)) then
          raise exception 'velocity_charges.decision_id refers to no decision' using errcode = 'foreign_key_violation';
        end if;
      end if;
      return null;
    end
    $$;

-- A charge keeps its history: only voided_at may be set or cleared, and rows are deleted only by
-- velocity_prune_batch past the retention.
CREATE OR REPLACE FUNCTION public.velocity_charges_guard() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    begin
      if tg_op = 'UPDATE' and (old.voided_at is null) <> (new.voided_at is null)
         and (new.id, new.decision_id, new.transaction_name, new.vault, new.transfer_index, new.group_hash, new.amount, new.usd, new.asset, new.charged_at)
             is not distinct from
             (old.id, old.decision_id, old.transaction_name, old.vault, old.transfer_index, old.group_hash, old.amount, old.usd, old.asset, old.charged_at)
      then
        return new;
      end if;
      -- Set only inside velocity_prune_batch, which only its owner's privileges can run.
      if tg_op = 'DELETE' and current_setting('countersign.velocity_prune', true) = 'on' then
        return old;
      end if;
      raise exception 'velocity_charges keeps its history: only setting or clearing voided_at, or velocity_prune_batch past the retention, is allowed (% refused)', tg_op
        using errcode = 'insufficient_privilege';
    end
    $$;

-- The pruner's batch. Whatever it is asked, it keeps the last day and what the longest live window
-- claim reads (plus a day for clocks and late voids; fine buckets at most 35 days of it), and says
-- what it clamped: a process with a shorter retention would otherwise cut a longer window short,
-- which then approves past its limit. Runs with the owner's rights: the writer has no DELETE.
CREATE OR REPLACE FUNCTION public.velocity_prune_batch(fine_before timestamp with time zone, charges_before timestamp with time zone, batch integer) RETURNS TABLE(deleted integer, fine_kept_before timestamp with time zone, charges_kept_before timestamp with time zone, claimed_window_seconds integer, clamped boolean)
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    SET lock_timeout TO '1s'
    AS $$
    declare
      buckets integer;
      charges integer;
      longest integer;
    begin
      if batch is null or batch < 1 or batch > 50000 then
        raise exception 'velocity_prune_batch: batch must be 1 to 50000' using errcode = 'invalid_parameter_value';
      end if;
      if fine_before is null or charges_before is null or fine_before > now() - interval '1 day'
         or charges_before > now() - interval '1 day' or charges_before > fine_before then
        raise exception 'velocity_prune_batch: keeps at least the last day, and the charges and day buckets at least as long as the finer buckets'
          using errcode = 'invalid_parameter_value';
      end if;
      if not pg_try_advisory_xact_lock(hashtextextended('countersign:velocity-pruner', 0)) then
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
    $$;

-- The database user a void ran as is the server's session_user, whatever the insert names: as a
-- column default alone, the writer's login could record a void as another user's.
CREATE OR REPLACE FUNCTION public.velocity_voids_database_user() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    begin
      new.database_user := session_user;
      return new;
    end
    $$;

-- The only way to write a window claim: it adds one or pushes its lapse later, never shortens or
-- removes one another process relies on. It waits for a prune batch in flight, so a batch that read
-- the claims before this one has finished before the claimant's bundle reads anything.
CREATE OR REPLACE FUNCTION public.velocity_window_claim(holder text, window_seconds integer, lapse_seconds integer) RETURNS timestamp with time zone
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    SET lock_timeout TO '30s'
    AS $$
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
      perform pg_advisory_xact_lock(hashtextextended('countersign:velocity-pruner', 0));
      insert into velocity_window_claims as c (holder, window_seconds, claimed_at, lapses_at)
        values (holder, window_seconds, now(), now() + make_interval(secs => lapse_seconds))
        on conflict on constraint velocity_window_claims_pkey do update
          -- Never earlier: whoever calls this cannot shorten a claim another process relies on.
          set claimed_at = now(), lapses_at = greatest(c.lapses_at, excluded.lapses_at)
        returning c.lapses_at into lapses;
      return lapses;
    end
    $$;

REVOKE ALL ON FUNCTION public.velocity_prune_batch(fine_before timestamp with time zone, charges_before timestamp with time zone, batch integer) FROM PUBLIC;

GRANT ALL ON FUNCTION public.velocity_prune_batch(fine_before timestamp with time zone, charges_before timestamp with time zone, batch integer) TO countersign_writer;

REVOKE ALL ON FUNCTION public.velocity_window_claim(holder text, window_seconds integer, lapse_seconds integer) FROM PUBLIC;

GRANT ALL ON FUNCTION public.velocity_window_claim(holder text, window_seconds integer, lapse_seconds integer) TO countersign_writer;
