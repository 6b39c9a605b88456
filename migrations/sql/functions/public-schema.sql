-- Who but the trail's owner may still create in schema public: code planted there would run inside
-- the owner's SECURITY DEFINER functions with the owner's rights (migrate closes it, see the baseline).
CREATE OR REPLACE FUNCTION public.public_schema_open_to() RETURNS text[]
    LANGUAGE sql STABLE
    SET search_path TO 'pg_catalog', 'pg_temp'
    AS $$ select array_agg(r) from unnest(array['public', 'countersign_writer', 'countersign_auditor']) r
      where (r = 'public' or exists (select 1 from pg_roles where rolname = r)) and has_schema_privilege(r, 'public', 'CREATE') $$;
