import { sql, type Kysely } from "kysely";

/**
 * Schema `public` holds no function, procedure, aggregate, operator, type or cast that a login
 * other than the trail's owner created (found by a review of the audit trail). Migration
 * 20261125T1700_public_schema_closed stopped such logins creating there, but what they planted
 * before (up to Postgres 14, or on a cluster upgraded from one, every role could) stayed: a
 * `public.hashtextextended(text, integer)` the writer or the auditor created still beat
 * pg_catalog's `(text, bigint)` in `audit_seal`, which the writer calls each second, and ran with
 * the owner's rights. Dropping another role's objects is not the owner's to do (nor safe to do
 * silently: the planting is evidence), so the migration is refused, naming each object and its
 * owner and what an administrator runs. `countersign audit verify` reports the same objects when
 * they appear later (an administrator re-granting CREATE, a REASSIGN OWNED).
 *
 * Trusted owners: the owners of the trail's tables (the trail's owner; a migrating user other than
 * the owner of `decisions` owns what it created), the migrating user, and superusers (who need no
 * planted code). Extension members and the internal parts of another object (an array type, a
 * range type's constructors) are left out: the extension or the object is what is reported.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    do $$
    declare
      trail_owner text := (select c.relowner::regrole::text from pg_class c where c.oid = 'public.decisions'::regclass);
      found text;
      drops text;
    begin
      with trusted as (
        select c.relowner as role from pg_class c
        where c.relnamespace = 'public'::regnamespace and c.relname in ('decisions', 'audit_chain', 'audit_seals', 'audit_sources')
        union select r.oid from pg_roles r where r.rolsuper or r.rolname = current_user
      ),
      objects as (
        select 'pg_proc'::regclass as classid, p.oid as objid, p.proowner as owner, null::text as kind
        from pg_proc p where p.pronamespace = 'public'::regnamespace
        union all
        select 'pg_operator'::regclass, o.oid, o.oprowner, null from pg_operator o where o.oprnamespace = 'public'::regnamespace
        union all
        select 'pg_type'::regclass, t.oid, t.typowner, case t.typtype when 'd' then 'domain' else 'type' end
        from pg_type t where t.typnamespace = 'public'::regnamespace
        union all
        -- A cast belongs to no schema: the one of a type or function in public someone else owns.
        select 'pg_cast'::regclass, k.oid, coalesce(f.proowner, s.typowner, t.typowner), null
        from pg_cast k
        left join pg_proc f on f.oid = k.castfunc and f.pronamespace = 'public'::regnamespace and f.proowner not in (select role from trusted)
        left join pg_type s on s.oid = k.castsource and s.typnamespace = 'public'::regnamespace and s.typowner not in (select role from trusted)
        left join pg_type t on t.oid = k.casttarget and t.typnamespace = 'public'::regnamespace and t.typowner not in (select role from trusted)
        where coalesce(f.oid, s.oid, t.oid) is not null
      ),
      planted as (
        select o.owner::regrole::text as owner, coalesce(o.kind, i.type) as kind, i.identity
        from objects o, pg_identify_object(o.classid, o.objid, 0) i
        where o.owner not in (select role from trusted)
          and not exists (select 1 from pg_depend d where d.classid = o.classid and d.objid = o.objid and d.deptype in ('e', 'i'))
      )
      -- In an order each can be dropped in: a cast or an operator before its function, a function before its types.
      select string_agg(format('%s %s (owner %s)', kind, identity, owner), '; ' order by array_position(array['cast', 'operator', 'aggregate', 'function', 'procedure', 'domain', 'type'], kind), identity),
        string_agg(format('drop %s %s;', kind, identity), ' ' order by array_position(array['cast', 'operator', 'aggregate', 'function', 'procedure', 'domain', 'type'], kind), identity)
      into found, drops
      from planted;
      if found is not null then
        -- The message alone reaches a migration Job's log (MigrationError): the remedy goes in it.
        raise exception '%', format('schema public holds objects that logins other than the trail''s owner created, which functions the trail''s owner runs '
          '(audit_seal, the window claims, partition creation) may call with its rights: %s; '
          'as an administrator, read each (it may be evidence of an attempt) and drop it: %s '
          'or, if it is the trail''s own, give it to the trail''s owner (alter ... owner to %I); then migrate again', found, drops, trail_owner);
      end if;
    end
    $$`.execute(db);
}

/** Nothing to undo: the migration only checks. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(_db: Kysely<any>): Promise<void> {}
