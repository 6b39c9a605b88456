-- The server's own deadline check, last in the write and before the COMMIT sent with it: a write
-- that finished past the decision's budget fails, and the COMMIT behind it rolls back.
CREATE OR REPLACE FUNCTION public.countersign_decision_in_time(budget_ms double precision) RETURNS void
    LANGUAGE plpgsql
    AS $$
    begin
      if clock_timestamp() > transaction_timestamp() + make_interval(secs => budget_ms / 1000) then
        raise exception 'the decision''s deadline passed before its commit' using errcode = 'query_canceled';
      end if;
    end $$;

-- The decision's first round trip (src/decision/session.ts): sets the transaction's timeouts from
-- the budget, takes the name's lock, then finds the name's final decision (through final_decisions:
-- one index lookup however many months decisions holds), its review and actions, a reported
-- failure, and when evaluation may follow, takes the window groups' locks in the order given and
-- reads their totals per piece. It starts as few executors as it can (assignments, not PERFORM;
-- arrays, not jsonb to unnest): a callgrind count of the backend showed they were what it spent.
CREATE OR REPLACE FUNCTION public.countersign_decision_read(args jsonb, budget_ms double precision, OUT final jsonb, OUT review jsonb, OUT actions jsonb, OUT failure jsonb, OUT total_ords integer[], OUT total_amounts text[], OUT total_counts text[], OUT total_usds text[]) RETURNS record
    LANGUAGE plpgsql
    AS $$
    declare
      tx_name text := args->>'name';
      budget text := greatest(1, floor(budget_ms))::bigint::text;
      failed_states text[] := (args->>'failedStates')::text[];
      lock_id int8;
      final_id uuid;
      final_at timestamptz;
      done text;
    begin
      -- Assigned, not PERFORMed: PERFORM starts an executor for its SELECT, while an assignment of
      -- a single function call is a PL/pgSQL simple expression, evaluated without one.
      done := set_config('lock_timeout', budget, true);
      done := set_config('statement_timeout', budget, true);
      done := set_config('idle_in_transaction_session_timeout', budget, true);
      done := pg_advisory_xact_lock(hashtextextended('decision:' || tx_name, 0))::text;
      -- The name's first final decision, through its one row in final_decisions: a lookup in one
      -- index, however many months `decisions` holds. Then that row alone, in its month.
      select f.decision_id, f.decided_at into final_id, final_at from final_decisions f where f.transaction_name = tx_name;
      if found then
        select jsonb_build_object('id', d.id, 'decision', d.decision, 'policy_version', d.policy_version, 'policy_digest', d.policy_digest,
            'matched_rules', d.matched_rules, 'reasons', d.reasons, 'content_digest', d.content_digest,
            'voided', exists (select 1 from velocity_charges c where c.decision_id = d.id and c.voided_at is not null))
          into final
          from decisions d
          where d.id = final_id and d.decided_at = final_at and d.transaction_name = tx_name;
        -- Its month was archived (detached): decided before, so never decided again.
        final := coalesce(final, jsonb_build_object('id', final_id, 'archived', true));
        return;
      end if;
      select jsonb_build_object('id', r.id, 'transaction_name', r.transaction_name, 'vault', r.vault, 'content_digest', r.content_digest,
          'opened_at', r.opened_at, 'expires_at', r.expires_at, 'opened_by', r.opened_by, 'initiator', r.initiator,
          'requirements', r.requirements, 'explanation', r.explanation)
        into review
        from reviews r where r.transaction_name = tx_name order by r.seq desc limit 1;
      if review is not null then
        select coalesce(jsonb_agg(to_jsonb(a) order by a.seq), '[]'::jsonb) into actions from (
          select seq, id, at, transaction_name, content_digest, identity, action, "group", comment
          from review_actions where transaction_name = tx_name and content_digest = review->>'content_digest'
        ) a;
      end if;
      select jsonb_build_object('id', e.id, 'new_state', e.new_state) into failure
        from events e
        where e.resource = tx_name and e.type = 'TRANSACTION_STATE_UPDATED' and e.new_state = any (failed_states)
        order by e.seq limit 1;
      if failure is null and (args->>'evaluate')::boolean then
        -- One lock after another in the order given (ascending ids): queue, never deadlock.
        foreach lock_id in array (args->>'locks')::int8[] loop
          done := pg_advisory_xact_lock(lock_id)::text;
        end loop;
        -- Each piece's sums, as arrays in step; the service adds a window's pieces up.
        select array_agg(p.ord), array_agg(coalesce(p.amount, 0)::text), array_agg(coalesce(p.count, 0)::text), array_agg(coalesce(p.usd, 0)::text)
          into total_ords, total_amounts, total_counts, total_usds
          from (
            select b.ord, s.amount, s.count, s.usd
            from jsonb_to_recordset(args->'buckets') as b(ord int, width int, from_at timestamptz, until_at timestamptz)
            cross join lateral (
              select sum(v.amount) as amount, sum(v.count) as count, sum(v.usd) as usd from velocity_buckets v
              where v.group_hash = decode(args->'hashes'->>b.ord, 'hex') and v.width_seconds = b.width
                and v.bucket_start >= b.from_at and v.bucket_start < b.until_at
            ) s
            union all
            select e.ord, s.amount, s.count, s.usd
            from jsonb_to_recordset(args->'edges') as e(ord int, after_at timestamptz, until_at timestamptz)
            cross join lateral (
              select sum(c.amount) as amount, count(*) as count, sum(c.usd) as usd from velocity_charges c
              where c.group_hash = decode(args->'hashes'->>e.ord, 'hex') and c.voided_at is null
                and c.charged_at > e.after_at and c.charged_at < e.until_at
            ) s
          ) p;
      end if;
    end $$;

-- The first round trip of a transaction several decisions share (src/decision/batches.ts). It never
-- waits for a lock: a member whose name or group is locked elsewhere comes back busy and is sent
-- alone. A name twice, or a group in two evaluating members, is refused: in one transaction each
-- would read before the other's row and charges are written, and neither would count the other.
CREATE OR REPLACE FUNCTION public.countersign_decision_read_batch(args jsonb, budget_ms double precision) RETURNS TABLE(ord integer, busy boolean, final jsonb, review jsonb, actions jsonb, failure jsonb, total_ords integer[], total_amounts text[], total_counts text[], total_usds text[])
    LANGUAGE plpgsql
    AS $$
    declare
      budget text := greatest(1, floor(budget_ms))::bigint::text;
      n int := jsonb_array_length(args);
      busy_at boolean[];
      lock_id int8;
      done text;
      i int;
    begin
      if jsonb_typeof(args) is distinct from 'array' then
        raise exception 'countersign_decision_read_batch takes an array of reads' using errcode = 'invalid_parameter_value';
      end if;
      if exists (select 1 from jsonb_array_elements(args) m group by m->>'name' having count(*) > 1 or m->>'name' is null) then
        raise exception 'a batch of decisions names one transaction twice' using errcode = 'invalid_parameter_value';
      end if;
      if exists (select 1 from jsonb_array_elements(args) m cross join unnest((m->>'locks')::int8[]) as l(id)
          where (m->>'evaluate')::boolean group by l.id having count(*) > 1) then
        raise exception 'a batch of decisions shares a window group' using errcode = 'invalid_parameter_value';
      end if;
      done := set_config('lock_timeout', budget, true);
      done := set_config('statement_timeout', budget, true);
      done := set_config('idle_in_transaction_session_timeout', budget, true);
      busy_at := array_fill(false, array[n]);
      -- Every name, then the groups; in no particular order, since no lock here is waited for.
      for i in 0 .. n - 1 loop
        if not pg_try_advisory_xact_lock(hashtextextended('decision:' || (args->i->>'name'), 0)) then
          busy_at[i + 1] := true;
        end if;
      end loop;
      for i in 0 .. n - 1 loop
        if not busy_at[i + 1] and (args->i->>'evaluate')::boolean then
          foreach lock_id in array (args->i->>'locks')::int8[] loop
            if not pg_try_advisory_xact_lock(lock_id) then
              busy_at[i + 1] := true;
              exit;
            end if;
          end loop;
        end if;
      end loop;
      for i in 0 .. n - 1 loop
        if busy_at[i + 1] then
          return query select i, true, null::jsonb, null::jsonb, null::jsonb, null::jsonb, null::int[], null::text[], null::text[], null::text[];
        else
          return query select i, false, r.final, r.review, r.actions, r.failure, r.total_ords, r.total_amounts, r.total_counts, r.total_usds
            from countersign_decision_read(args->i, budget_ms) r;
        end if;
      end loop;
    end $$;

-- The decision's second round trip: the decision row, its review and actions, its charges stamped
-- with the decision's time and each group's buckets raised once per width by the sum of its
-- charges (an upsert may touch a row once per statement), then the deadline check.
CREATE OR REPLACE FUNCTION public.countersign_decision_write(args jsonb, budget_ms double precision) RETURNS void
    LANGUAGE plpgsql
    AS $$
    declare
      row_id uuid := (args->'decision'->>'id')::uuid;
      decided timestamptz := (args->'decision'->>'decided_at')::timestamptz;
      tx_name text := args->'decision'->>'transaction_name';
      tx_vault text := args->'decision'->>'vault';
    begin
      insert into decisions (
        id, decided_at, transaction_name, vault, decision, sign_transaction, http_status, replayed, replay_of,
        policy_version, policy_digest, matched_rules, reasons, facts, transaction, content_digest, request_id,
        duration_ms, trace, velocity_windows, shadow_policy_version, shadow_policy_digest, shadow_decision,
        shadow_matched_rules, shadow_error, prices)
      select
        id, decided_at, transaction_name, vault, decision, sign_transaction, http_status, replayed, replay_of,
        policy_version, policy_digest, matched_rules, reasons, facts, transaction, content_digest, request_id,
        duration_ms, trace, velocity_windows, shadow_policy_version, shadow_policy_digest, shadow_decision,
        shadow_matched_rules, shadow_error, prices
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

      -- Charges are the decision's, stamped with its time; each group's bucket rows are raised once
      -- per width by the sum of its charges (an upsert may touch a row only once per statement).
      if jsonb_array_length(coalesce(args->'charges', '[]'::jsonb)) > 0 then
        with known as (
          insert into velocity_groups (group_hash, group_key, first_charged_at)
          select decode(g.hash, 'hex'), g.key, decided
          from jsonb_to_recordset(args->'groups') as g(hash text, key text)
          on conflict (group_hash) do nothing
        ), input as (
          select c.transfer_index, decode(c.hash, 'hex') as group_hash, c.amount, c.usd, c.asset
          from jsonb_to_recordset(args->'charges') as c(transfer_index int, hash text, amount numeric, usd numeric, asset text)
        ), charged as (
          insert into velocity_charges (decision_id, transaction_name, vault, transfer_index, group_hash, amount, usd, asset, charged_at)
          select row_id, tx_name, tx_vault, transfer_index, group_hash, amount, usd, asset, decided from input
        )
        insert into velocity_buckets as b (group_hash, width_seconds, bucket_start, amount, count, usd)
        select i.group_hash, w.width::int, velocity_bucket_start(w.width::int, decided), s.amount, s.count, s.usd
        from input i
        cross join lateral (
          select coalesce(sum(j.amount), 0) as amount, count(*) as count, coalesce(sum(j.usd), 0) as usd, min(j.transfer_index) as first_index
          from input j where j.group_hash = i.group_hash
        ) s
        cross join jsonb_array_elements_text(args->'widths') as w(width)
        where i.transfer_index = s.first_index
        on conflict (group_hash, width_seconds, bucket_start)
          do update set amount = b.amount + excluded.amount, count = b.count + excluded.count, usd = b.usd + excluded.usd;
      end if;

      perform countersign_decision_in_time(budget_ms);
    end $$;

-- The shared transaction's write: each member's write in turn (a set-based write measured about five
-- times slower, docs/performance.md).
CREATE OR REPLACE FUNCTION public.countersign_decision_write_batch(args jsonb, budget_ms double precision) RETURNS void
    LANGUAGE plpgsql
    AS $$
    declare
      member jsonb;
    begin
      if jsonb_typeof(args) is distinct from 'array' then
        raise exception 'countersign_decision_write_batch takes an array of writes' using errcode = 'invalid_parameter_value';
      end if;
      for member in select value from jsonb_array_elements(args) loop
        perform countersign_decision_write(member, budget_ms);
      end loop;
    end $$;
