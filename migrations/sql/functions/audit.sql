-- The canonical encoding of an audited row (docs/audit.md "Integrity: the hash chain"): to_jsonb
-- without written_xid (the sealer's bookmark) and without top-level nulls, so a nullable column
-- added later leaves older rows' digests as they were. The settings that change how a value
-- prints are pinned, so every session computes the same text.
CREATE OR REPLACE FUNCTION public.audit_canonical_row(r anyelement) RETURNS jsonb
    LANGUAGE sql STABLE
    SET "TimeZone" TO 'UTC'
    SET extra_float_digits TO '1'
    SET bytea_output TO 'hex'
    SET "IntervalStyle" TO 'postgres'
    AS $$ select jsonb_object_agg(e.key, e.value) from jsonb_each(to_jsonb(r) - 'written_xid') e where e.value <> 'null'::jsonb $$;

-- The sealer's way to the same canonical text: an expression printed column by column from the
-- catalog, without building the row's jsonb, which cost the sealer nearly three times the
-- instructions a row (test/integration/audit/seal-digest.test.ts holds it to audit_canonical_row).
CREATE OR REPLACE FUNCTION public.audit_canonical_text_sql(source text) RETURNS text
    LANGUAGE sql STABLE
    SET search_path TO 'public', 'pg_temp'
    AS $_$
      -- An expression over a row t of source that prints what audit_canonical_row(t) prints,
      -- without building the row's jsonb: '{', the present columns as '"key": value' in jsonb's
      -- key order (shorter keys first, then bytewise) joined by ', ', then '}'. A column whose
      -- value prints as JSON null (SQL NULL in any column; JSON null in a json or jsonb column) is
      -- a NULL element, which array_to_string leaves out; written_xid is never there. A jsonb value
      -- prints as itself, a json value as its jsonb, any other as to_jsonb of it: each is what
      -- to_jsonb(t) holds under that key.
      select format('''{'' || array_to_string(array[%s]::text[], '', '') || ''}''', coalesce(string_agg(format(
          case coalesce(nullif(ty.typbasetype, 0), ty.oid)
            when 'jsonb'::regtype then 'case when jsonb_typeof(t.%1$I) <> ''null'' then %2$L || t.%1$I::text end'
            when 'json'::regtype then 'case when json_typeof(t.%1$I) <> ''null'' then %2$L || t.%1$I::jsonb::text end'
            else 'case when t.%1$I is not null then %2$L || to_jsonb(t.%1$I)::text end'
          end, a.attname, to_jsonb(a.attname::text)::text || ': '), ', '
          order by octet_length(a.attname::text), a.attname::text collate "C"), ''))
      from pg_attribute a join pg_type ty on ty.oid = a.atttypid
      where a.attrelid = source::regclass and a.attnum > 0 and not a.attisdropped and a.attname <> 'written_xid'
    $_$;

-- Puts a table in the hash chain: its bookmark column and indexes, the append-only triggers, the
-- writer's rights (insert only the columns it writes, never update or delete), the auditor's read.
CREATE OR REPLACE FUNCTION public.audit_chain_register(source text, key_column text, time_column text) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'public', 'pg_temp'
    AS $$
    declare
      tbl regclass := source::regclass;
      key_type text;
    begin
      select format_type(a.atttypid, a.atttypmod) into key_type from pg_attribute a
        where a.attrelid = tbl and a.attname = key_column and not a.attisdropped;
      if key_type is null then raise exception 'audit_chain_register: % has no column %', source, key_column; end if;
      if not exists (select 1 from pg_attribute where attrelid = tbl and attname = time_column and not attisdropped) then
        raise exception 'audit_chain_register: % has no column %', source, time_column;
      end if;
      if not exists (select 1 from pg_attribute where attrelid = tbl and attname = 'written_xid' and not attisdropped) then
        execute format('alter table %s add column written_xid xid8 not null default pg_current_xact_id()', tbl);
      end if;
      execute format('create index if not exists %I on %s (written_xid)', source || '_by_written_xid', tbl);
      execute format('create index if not exists %I on %s (%I)', source || '_by_' || time_column, tbl, time_column);
      if not exists (select 1 from pg_trigger where tgrelid = tbl and tgname = source || '_append_only') then
        execute format('create trigger %I before update or delete on %s for each row execute function countersign_refuse_change()', source || '_append_only', tbl);
      end if;
      if not exists (select 1 from pg_trigger where tgrelid = tbl and tgname = source || '_no_truncate') then
        execute format('create trigger %I before truncate on %s for each statement execute function countersign_refuse_change()', source || '_no_truncate', tbl);
      end if;
      if exists (select 1 from pg_roles where rolname = 'countersign_writer') then
        execute format('revoke update, delete, truncate on %s from countersign_writer', tbl);
        execute format('grant select on %s to countersign_writer', tbl);
        perform audit_writer_insert_columns(tbl);
      end if;
      if exists (select 1 from pg_roles where rolname = 'countersign_auditor') then
        execute format('grant select on %s to countersign_auditor', tbl);
      end if;
      insert into audit_sources (source, key_column, key_type, time_column) values (source, key_column, key_type, time_column)
        on conflict on constraint audit_sources_pkey do nothing;
    end
    $$;

-- The chain's entry hash. row_time is in it, so that an entry's time cannot be moved without
-- breaking it and an anchored checkpoint stands for the time of every entry before it.
CREATE OR REPLACE FUNCTION public.audit_link_hash(source text, row_key text, row_time timestamp with time zone, row_digest bytea, prev_hash bytea) RETURNS bytea
    LANGUAGE sql IMMUTABLE STRICT
    SET "TimeZone" TO 'UTC'
    AS $$ select sha256(convert_to(jsonb_build_array(source, row_key, row_time, encode(row_digest, 'hex'), encode(prev_hash, 'hex'))::text, 'UTF8')) $$;

-- Whether a role exists: a migrating user without CREATEROLE may not have created the group roles.
CREATE OR REPLACE FUNCTION public.audit_role_exists(role text) RETURNS boolean
    LANGUAGE sql STABLE
    AS $$ select exists (select 1 from pg_roles where rolname = role) $$;

-- The row digest as docs/audit.md defines it; audit verify computes it itself (an owner may redefine this).
CREATE OR REPLACE FUNCTION public.audit_row_digest(r anyelement) RETURNS bytea
    LANGUAGE sql STABLE
    AS $$ select sha256(convert_to(audit_canonical_row(r)::text, 'UTF8')) $$;

-- One sealing batch; returns the rows linked (-1 when another session is sealing: one sealer at a
-- time, under an advisory lock, so every replica may call it each second). Candidates are the rows
-- written at or after the last batch's horizon that the chain does not hold: every older row was
-- visible to that batch. Within a batch the order is (writing transaction, row time, table, key);
-- a full batch keeps the old horizon, so the next looks again from there. It runs with its owner's
-- rights, search_path pinned with pg_catalog first: the writer calls it, but may not write the
-- chain, the seals or the sources itself (it could forge the seal verify measures rows against).
CREATE OR REPLACE FUNCTION public.audit_seal(max_rows integer) RETURNS integer
    LANGUAGE plpgsql SECURITY DEFINER
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    SET "TimeZone" TO 'UTC'
    SET extra_float_digits TO '1'
    SET bytea_output TO 'hex'
    SET "IntervalStyle" TO 'postgres'
    AS $_$
    declare
      horizon xid8;
      since xid8;
      last_position bigint;
      last_hash bytea;
      first_position bigint;
      candidates text;
      r record;
      linked integer := 0;
      positions bigint[] := '{}';
      sources text[] := '{}';
      row_keys text[] := '{}';
      row_times timestamptz[] := '{}';
      row_digests bytea[] := '{}';
      prev_hashes bytea[] := '{}';
      hashes bytea[] := '{}';
    begin
      if not pg_try_advisory_xact_lock(hashtextextended('countersign:audit-sealer', 0)) then return -1; end if;
      horizon := pg_snapshot_xmin(pg_current_snapshot());
      select s.horizon into since from audit_seals s order by s.id desc limit 1;
      since := coalesce(since, '0'::xid8);
      select c.position, c.hash into last_position, last_hash from audit_chain c order by c.position desc limit 1;
      last_position := coalesce(last_position, 0);
      last_hash := coalesce(last_hash, decode(repeat('00', 32), 'hex'));
      first_position := last_position + 1;
      -- The row digest as audit_row_digest defines it, under this function's pinned settings.
      select string_agg(format(
          'select %L::text as source, t.%I::text as row_key, t.%I as row_time, t.written_xid,'
          ' sha256(convert_to(%s, ''UTF8'')) as row_digest'
          ' from %I t where t.written_xid >= $1'
          ' and not exists (select 1 from audit_chain c where c.source = %L and c.row_key = t.%I::text)',
          s.source, s.key_column, s.time_column, audit_canonical_text_sql(s.source), s.source, s.source, s.key_column), ' union all ' order by s.source)
        into candidates from audit_sources s;
      if candidates is null then return 0; end if;
      for r in execute 'select * from (select distinct on (source, row_key) * from (' || candidates || ') u'
        ' order by source, row_key, written_xid, row_time) d order by written_xid, row_time, source, row_key limit $2'
        using since, max_rows
      loop
        last_position := last_position + 1;
        positions := positions || last_position;
        sources := sources || r.source;
        row_keys := row_keys || r.row_key;
        row_times := row_times || r.row_time;
        row_digests := row_digests || r.row_digest;
        prev_hashes := prev_hashes || last_hash;
        -- audit_link_hash(source, row_key, row_time, row_digest, prev_hash), inline (row_time prints in UTC: this function pins it).
        last_hash := sha256(convert_to(jsonb_build_array(r.source, r.row_key, r.row_time, encode(r.row_digest, 'hex'), encode(last_hash, 'hex'))::text, 'UTF8'));
        hashes := hashes || last_hash;
        linked := linked + 1;
      end loop;
      if linked > 0 then
        insert into audit_chain (position, source, row_key, row_time, row_digest, prev_hash, hash, sealed_at)
          select p, s, k, t, d, ph, h, now() from unnest(positions, sources, row_keys, row_times, row_digests, prev_hashes, hashes) as e(p, s, k, t, d, ph, h);
        insert into audit_seals (sealed_at, horizon, first_position, last_position, last_hash)
          values (now(), case when linked < max_rows then horizon else since end, first_position, last_position, last_hash);
      end if;
      return linked;
    end
    $_$;

-- The writer may insert a chained table's columns but written_xid, which the default fills: the
-- sealer relies on it being the writing transaction's id.
CREATE OR REPLACE FUNCTION public.audit_writer_insert_columns(tbl regclass) RETURNS void
    LANGUAGE plpgsql
    SET search_path TO 'pg_catalog', 'public', 'pg_temp'
    AS $$
    declare columns text;
    begin
      if not exists (select 1 from pg_roles where rolname = 'countersign_writer') then return; end if;
      select string_agg(quote_ident(a.attname), ', ' order by a.attnum) into columns
        from pg_attribute a
        where a.attrelid = tbl and a.attnum > 0 and not a.attisdropped and a.attidentity <> 'a' and a.attname <> 'written_xid';
      execute format('revoke insert on %s from countersign_writer', tbl);
      execute format('grant insert (%s) on %s to countersign_writer', columns, tbl);
    end
    $$;

REVOKE ALL ON FUNCTION public.audit_seal(max_rows integer) FROM PUBLIC;

GRANT ALL ON FUNCTION public.audit_seal(max_rows integer) TO countersign_writer;

REVOKE ALL ON FUNCTION public.audit_writer_insert_columns(tbl regclass) FROM PUBLIC;
