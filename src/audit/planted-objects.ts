/**
 * Functions, procedures, aggregates, operators, types and casts in schema public (and the schema
 * verified) that a role other than the trail's owner or a superuser owns. The owner's SECURITY DEFINER functions (audit_seal, which the writer calls every
 * second, the window claims, partition creation, the final_decisions trigger) look names up on a
 * path that holds public, and Postgres takes the best-matching overload whatever its schema: such
 * an object runs its owner's code with the trail owner's rights, which can rewrite sealed rows and
 * their chain entries alike. `migrate` refuses while one is there (refusePlantedCode in
 * migrations/20261129T0000_baseline.ts); verify reports one that appears later (CREATE on public granted again, an ALTER ...
 * OWNER or REASSIGN OWNED by an administrator), since the chain's word rests on no one else writing
 * with the owner's rights. Read from the catalog with the session pinned (verify.ts): nothing here
 * is looked up through a path.
 *
 * Trusted owners are the owners of the trail's tables and superusers; extension members and the
 * internal parts of another object (an array type, a range type's constructors) are left out.
 */
import { sql } from "kysely";
import type { Db } from "../database.js";
import type { Break } from "./breaks.js";

const DROP_ORDER = ["cast", "operator", "aggregate", "function", "procedure", "domain", "type"];

/** `tables`: the trail's tables (audit_sources' sources and the chain's own), in `schema`. */
export async function plantedObjects(db: Db, schema: string, tables: string[]): Promise<Break[]> {
  const { rows } = await sql<{ kind: string; identity: string; owner: string }>`
    with schemas as (
      select n.oid from pg_catalog.pg_namespace n where n.nspname in ('public', ${schema})
    ),
    trusted as (
      select c.relowner as role from pg_catalog.pg_class c
      where c.relnamespace = ${schema}::pg_catalog.regnamespace and c.relname = any(${tables}::pg_catalog.text[])
      union select r.oid from pg_catalog.pg_roles r where r.rolsuper
    ),
    objects as (
      select 'pg_catalog.pg_proc'::pg_catalog.regclass as classid, p.oid as objid, p.proowner as owner, null::pg_catalog.text as kind
      from pg_catalog.pg_proc p where p.pronamespace in (select oid from schemas)
      union all
      select 'pg_catalog.pg_operator'::pg_catalog.regclass, o.oid, o.oprowner, null
      from pg_catalog.pg_operator o where o.oprnamespace in (select oid from schemas)
      union all
      select 'pg_catalog.pg_type'::pg_catalog.regclass, t.oid, t.typowner, case when t.typtype = 'd' then 'domain' else 'type' end
      from pg_catalog.pg_type t where t.typnamespace in (select oid from schemas)
      union all
      select 'pg_catalog.pg_cast'::pg_catalog.regclass, k.oid, coalesce(f.proowner, s.typowner, t.typowner), null
      from pg_catalog.pg_cast k
      left join pg_catalog.pg_proc f on f.oid = k.castfunc and f.pronamespace in (select oid from schemas) and f.proowner not in (select role from trusted)
      left join pg_catalog.pg_type s on s.oid = k.castsource and s.typnamespace in (select oid from schemas) and s.typowner not in (select role from trusted)
      left join pg_catalog.pg_type t on t.oid = k.casttarget and t.typnamespace in (select oid from schemas) and t.typowner not in (select role from trusted)
      where coalesce(f.oid, s.oid, t.oid) is not null
    )
    select coalesce(o.kind, i.type) as kind, i.identity, o.owner::pg_catalog.regrole::pg_catalog.text as owner
    from objects o, pg_catalog.pg_identify_object(o.classid, o.objid, 0) i
    where o.owner not in (select role from trusted)
      and not exists (select 1 from pg_catalog.pg_depend d where d.classid = o.classid and d.objid = o.objid and d.deptype in ('e', 'i'))`.execute(db);
  const rank = (kind: string) => DROP_ORDER.indexOf(kind);
  return rows
    .sort((a, b) => rank(a.kind) - rank(b.kind) || (a.identity < b.identity ? -1 : a.identity > b.identity ? 1 : 0))
    .map((r) => ({
      kind: "planted",
      position: null,
      source: `${r.kind} ${r.identity}`,
      rowKey: "",
      detail:
        `owned by ${r.owner}, not the trail's owner: functions the owner runs with its rights may call it, which lets ${r.owner} rewrite sealed rows and their chain entries alike; ` +
        `as an administrator, read it (it may be evidence of an attempt) and drop it (drop ${r.kind} ${r.identity};), ` +
        `and grant CREATE on schema public to the trail's owner alone`,
    }));
}
