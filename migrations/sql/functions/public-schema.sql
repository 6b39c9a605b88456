CREATE OR REPLACE FUNCTION public.public_schema_open_to() RETURNS text[]
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$ select array_agg(r) from unnest(array['public', 'countersign_writer', 'countersign_auditor']) r
      where (r = 'public' or exists (select 1 from pg_roles where rolname = r)) and has_schema_privilege(r, 'public', 'CREATE') $$;
