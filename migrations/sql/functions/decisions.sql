CREATE OR REPLACE FUNCTION public.countersign_refuse_change() RETURNS trigger
    LANGUAGE plpgsql
    AS $$
    begin
      raise exception 'table % is append-only: % is refused', tg_table_name, tg_op
        using errcode = 'insufficient_privilege';
    end
    $$;

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
