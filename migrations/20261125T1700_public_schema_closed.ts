import { sql, type Kysely } from "kysely";

/**
 * No one but the trail's owner creates objects in schema `public` (found by a review of the audit
 * trail). The owner's SECURITY DEFINER functions (`audit_seal`, which every replica's sealer calls
 * each second as the writer, `decisions_ensure_partitions`, `velocity_window_claim`,
 * `velocity_prune_batch`, the `final_decisions_record` trigger) look functions up through a path
 * that holds `public`, and Postgres picks the overload whose argument types match best, whatever
 * schema comes first: a `public.hashtextextended(text, integer)` beats pg_catalog's
 * `(text, bigint)` for `audit_seal`'s `hashtextextended('…', 0)`. Up to Postgres 14 (and on a
 * cluster upgraded from one) every role may CREATE in `public`, so the writer, or the read-only
 * auditor, planted such a function, and the next seal ran it with the owner's rights: it granted
 * its login UPDATE on `decisions` and INSERT on `audit_chain` and `final_decisions`, so sealed rows
 * could be rewritten and an allow nobody decided put in front of a deferred name. Migrations run as
 * the owner with `public` on the path too.
 *
 * CREATE on `public` is revoked from PUBLIC and from the two group roles, as Postgres 15 does for a
 * new cluster; the owner of `decisions` and the migrating user keep it (given it explicitly when
 * they had it only through PUBLIC), since they create the trail's tables there. A migrating user
 * not allowed to revoke it (the schema is the bootstrap superuser's up to Postgres 14) is refused,
 * with what an administrator must run: the trail's protection against its own logins rests on it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // Which of PUBLIC and the two group roles may create objects in public (null: none).
  await sql`
    create function public_schema_open_to() returns text[] language sql stable set search_path = pg_catalog, pg_temp
    as $$ select array_agg(r) from unnest(array['public', 'countersign_writer', 'countersign_auditor']) r
      where (r = 'public' or exists (select 1 from pg_roles where rolname = r)) and has_schema_privilege(r, 'public', 'CREATE') $$`.execute(db);
  await sql`
    do $$
    declare
      trail_owner name := (select c.relowner::regrole::text from pg_class c where c.oid = 'public.decisions'::regclass);
      schema_owner name := (select n.nspowner::regrole::text from pg_namespace n where n.nspname = 'public');
      keeper name;
      role name;
    begin
      if public_schema_open_to() is null then return; end if;
      -- Not allowed, REVOKE and GRANT warn and change nothing: what is still open is checked after.
      foreach keeper in array array[trail_owner, current_user::name] loop
        if keeper <> schema_owner and not (select rolsuper from pg_roles where rolname = keeper) then
          execute format('grant create on schema public to %I', keeper);
        end if;
      end loop;
      revoke create on schema public from public;
      foreach role in array array['countersign_writer', 'countersign_auditor'] loop
        if exists (select 1 from pg_roles where rolname = role) then
          execute format('revoke create on schema public from %I', role);
        end if;
      end loop;
      if public_schema_open_to() is not null then
        -- The message alone reaches a migration Job's log (MigrationError): the remedy goes in it.
        raise exception '%', format('schema public lets %s create objects there, which functions the trail''s owner runs would call with its rights; '
          'as an administrator run: grant create on schema public to %I; revoke create on schema public from public; '
          'revoke create on schema public from countersign_writer, countersign_auditor; then migrate again '
          '(a login may also hold CREATE through another role it is a member of)', array_to_string(public_schema_open_to(), ', '), trail_owner);
      end if;
    end
    $$`.execute(db);
}

/** Leaves the schema closed: reopening it would hand the owner's rights to any login again. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop function if exists public_schema_open_to()`.execute(db);
}
