/**
 * The schema as of the first release, in one migration: the 39 migrations written before it were
 * squashed into this one (test/fixtures/schema/ records the schema they built, and
 * test/db/baseline-schema.test.ts holds this one to it). From here on migrations are append-only:
 * a change to a table is a new migration after this one, never an edit of this one. Functions,
 * views and triggers are not here: they live once each in migrations/sql/ and `migrate` applies
 * them after the migrations (src/db/sql-sources.ts).
 *
 * The two NOLOGIN group roles it grants to (docs/audit.md "Database roles"), `countersign_writer`,
 * what the service needs, and `countersign_auditor`, read-only, belong to the whole cluster, not to
 * this database: `migrate` ensures they exist before it runs any migration, and refuses with the
 * statements an administrator runs when the migrating user may not create them
 * (src/db/group-roles.ts).
 *
 * In order:
 * - the tables, their keys, constraints and indexes (baseline/tables.sql);
 * - the decision row's jsonb columns compressed with lz4 where the server has it (PGlite keeps
 *   pglz): pglz was the largest single function in a decision's profile;
 * - the function sources, which the steps below call;
 * - the rights of the roles on the tables (baseline/grants.sql): the writer inserts into the audit
 *   tables (only the columns it writes) and never updates or deletes them;
 * - the audit trail's sources, the tables the hash chain covers (README "Audit trail integrity");
 * - the months of `decisions` from this one to three ahead;
 * - schema `public` closed to every login but the trail's owner, and refused while it holds code
 *   another login planted there (both explained below).
 */
import { fileURLToPath } from "node:url";
import { sql, type Kysely } from "kysely";
import { applySqlFiles, functionFiles } from "../src/db/sql-sources.js";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await applySqlFiles(db, [baselineFile("tables.sql")]);
  await compressDecisions(db);
  await applySqlFiles(db, [...functionFiles(), baselineFile("grants.sql")]);
  await sql`
    insert into audit_sources (source, key_column, key_type, time_column) values
      ('decisions', 'id', 'uuid', 'decided_at'),
      ('events', 'id', 'text', 'received_at'),
      ('reviews', 'id', 'uuid', 'opened_at'),
      ('review_actions', 'id', 'uuid', 'at'),
      ('velocity_voids', 'id', 'uuid', 'at')`.execute(db);
  await sql`select decisions_ensure_partitions(3)`.execute(db);
  await closePublicSchema(db);
  await refusePlantedCode(db);
}

function baselineFile(name: string): string {
  return fileURLToPath(new URL(`baseline/${name}`, import.meta.url));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function compressDecisions(db: Kysely<any>): Promise<void> {
  await sql`
    do $$
    declare
      tbl regclass;
      col name;
    begin
      if not exists (select 1 from pg_settings where name = 'default_toast_compression' and 'lz4' = any (enumvals)) then
        return;
      end if;
      for tbl in select 'decisions'::regclass union all select inhrelid::regclass from pg_inherits where inhparent = 'decisions'::regclass loop
        for col in select attname from pg_attribute where attrelid = tbl and atttypid = 'jsonb'::regtype and attnum > 0 and not attisdropped loop
          execute format('alter table %s alter column %I set compression lz4', tbl, col);
        end loop;
      end loop;
    end $$`.execute(db);
}

/**
 * No one but the trail's owner creates objects in schema `public`. The owner's SECURITY DEFINER
 * functions (`audit_seal`, which every replica's sealer calls each second as the writer,
 * `decisions_ensure_partitions`, `velocity_window_claim`, `velocity_prune_batch`, the
 * `final_decisions_record` trigger) look functions up through a path that holds `public`, and
 * Postgres picks the overload whose argument types match best, whatever schema comes first: a
 * `public.hashtextextended(text, integer)` beats pg_catalog's `(text, bigint)`. Up to Postgres 14
 * (and on a cluster upgraded from one) every role may CREATE in `public`, so the writer, or the
 * read-only auditor, could plant such a function and have it run with the owner's rights.
 *
 * CREATE on `public` is revoked from PUBLIC and from the two group roles, as Postgres 15 does for a
 * new cluster; the owner of `decisions` and the migrating user keep it (given it explicitly when
 * they had it only through PUBLIC), since they create the trail's tables there. A migrating user
 * not allowed to revoke it (the schema is the bootstrap superuser's up to Postgres 14) is refused,
 * with what an administrator must run.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function closePublicSchema(db: Kysely<any>): Promise<void> {
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

/**
 * Schema `public` holds no function, procedure, aggregate, operator, type or cast that a login
 * other than the trail's owner created (before it was closed above). Dropping another role's
 * objects is not the owner's to do (nor safe to do silently: the planting is evidence), so the
 * migration is refused, naming each object and its owner and what an administrator runs.
 * `countersign audit verify` reports the same objects when they appear later.
 *
 * Trusted owners: the owners of the trail's tables, the migrating user, and superusers. Extension
 * members and the internal parts of another object (an array type, a range type's constructors)
 * are left out: the extension or the object is what is reported.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function refusePlantedCode(db: Kysely<any>): Promise<void> {
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
