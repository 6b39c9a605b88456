-- The append-only rule of the audit tables: UPDATE, DELETE and TRUNCATE are refused whoever runs them.
CREATE OR REPLACE FUNCTION public.countersign_refuse_change() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    begin
      raise exception 'table % is append-only: % is refused', tg_table_name, tg_op
        using errcode = 'insufficient_privilege';
    end
    $$;

-- The facts a decision judged; a repeat records none, so it shows those of the decision it repeats.
-- The arguments are named with the function's name (a column of the same name would win), and a
-- twin of the repeated row (decisions is unique on (id, decided_at) only) cannot make the views fail:
-- the sealed row is taken, or before the seal the one written first.
CREATE OR REPLACE FUNCTION public.decision_judged_facts(facts jsonb, replay_of uuid, replayed boolean) RETURNS jsonb
    LANGUAGE sql STABLE
    AS $$
      select case
        when jsonb_array_length(decision_judged_facts.facts) > 0 or not decision_judged_facts.replayed then decision_judged_facts.facts
        else coalesce((
          select o.facts from decisions o
          left join audit_chain c on c.source = 'decisions' and c.row_key = o.id::text and c.row_time = o.decided_at
          where o.id = decision_judged_facts.replay_of
          order by c.position is null, o.seq
          limit 1), '[]'::jsonb)
      end
    $$;

-- One month's partition of decisions, unless rows of that month already reached the default
-- partition: moving them out would mean deleting from an append-only table. The writer gets no right
-- on a partition: it writes through decisions, whose rights are the ones checked.
CREATE OR REPLACE FUNCTION public.decisions_create_month(month date) RETURNS boolean
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
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
      if exists (select 1 from pg_roles where rolname = 'countersign_writer') then
        execute format('revoke all on %I from countersign_writer', name);
      end if;
      return true;
    end
    $$;

-- No decision dated more than a day ahead lands in decisions_default: a row there keeps its month
-- out of a partition for good (decisions_create_month refuses it), so that month could never be
-- archived. Only rows routed to the default partition run it.
CREATE OR REPLACE FUNCTION public.decisions_default_refuse_ahead() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$
    begin
      if new.decided_at > now() + interval '1 day' then
        raise exception 'decision % is dated %, more than a day ahead of the database''s clock (%)', new.id, new.decided_at, now()
          using errcode = 'check_violation',
            hint = 'No monthly partition holds that time, and a row in decisions_default would keep its month out of a partition for good: check the clock of the host that decided.';
      end if;
      return new;
    end $$;

-- The months from this one to months_ahead (at most twelve) ahead. The service calls it at start and
-- daily as the writer, which may not create tables: it runs with the owner's rights.
CREATE OR REPLACE FUNCTION public.decisions_ensure_partitions(months_ahead integer) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'public', 'pg_temp'
    SET lock_timeout TO '1s'
    AS $$
    declare
      m date;
      created integer := 0;
      this_month date := date_trunc('month', now() at time zone 'UTC')::date;
    begin
      perform pg_advisory_xact_lock(hashtextextended('countersign:decisions-partitions', 0));
      for m in select generate_series(this_month, this_month + make_interval(months => least(greatest(months_ahead, 0), 12)), interval '1 month')::date loop
        if decisions_create_month(m) then created := created + 1; end if;
      end loop;
      return created;
    end
    $$;

-- A foreign key cannot point at decisions.id: on a partitioned table a unique key must include the
-- partition column, and a foreign key would forbid detaching an archived month. A table that refers
-- to a decision checks it at insert instead (decisions are never updated or deleted, so it holds).
CREATE OR REPLACE FUNCTION public.decisions_reference_exists() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    declare
      ref uuid := (to_jsonb(new) ->> tg_argv[0])::uuid;
    begin
      if ref is not null and not exists (select 1 from decisions where id = ref) then
        raise exception '%.% % refers to no decision', tg_table_name, tg_argv[0], ref using errcode = 'foreign_key_violation';
      end if;
      return new;
    end
    $$;

-- A signed repeat of an allow whose charges were voided is refused: voiding freed the window room on
-- the premise that the transaction moved no money. The service denies such a delivery; a repeat
-- takes the name's lock and a void the groups' locks, so a void may still commit between the read
-- and the write, and this makes that write fail (the next delivery is denied).
CREATE OR REPLACE FUNCTION public.decisions_refuse_repeat_after_void() RETURNS trigger
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    begin
      if exists (select 1 from velocity_charges c where c.decision_id = new.replay_of and c.voided_at is not null) then
        raise exception 'decision % repeats allow % as signed, but that allow''s velocity charges were voided: it is not signed again', new.id, new.replay_of
          using errcode = 'check_violation',
            hint = 'The charges were voided after the read that found the allow: the next delivery of the transaction is denied.';
      end if;
      return new;
    end $$;

-- A repeat or a conflicting delivery refers to a decision that exists (a foreign key cannot, see above).
CREATE OR REPLACE FUNCTION public.decisions_replay_of_exists() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    begin
      if not exists (select 1 from decisions where id = new.replay_of) then
        raise exception 'decisions.replay_of % refers to no decision', new.replay_of using errcode = 'foreign_key_violation';
      end if;
      return new;
    end
    $$;

-- Each name's first final decision, in final_decisions, for every writer: the read and the charges'
-- check find a name there instead of searching every month of decisions. Only this trigger writes
-- the table, with the owner's rights: with INSERT the writer could make a row of its choosing a
-- name's final decision and have it signed as a repeat.
CREATE OR REPLACE FUNCTION public.final_decisions_record() RETURNS trigger
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    begin
      insert into final_decisions (transaction_name, decision_id, decided_at) values (new.transaction_name, new.id, new.decided_at)
        on conflict (transaction_name) do nothing;
      return null;
    end
    $$;

REVOKE ALL ON FUNCTION public.decisions_create_month(month date) FROM PUBLIC;

REVOKE ALL ON FUNCTION public.decisions_ensure_partitions(months_ahead integer) FROM PUBLIC;

GRANT ALL ON FUNCTION public.decisions_ensure_partitions(months_ahead integer) TO countersign_writer;

REVOKE ALL ON FUNCTION public.final_decisions_record() FROM PUBLIC;
