import { sql, type Kysely } from "kysely";

/**
 * No JSON `null` in a nullable json or jsonb column of a chained table. The canonical row leaves
 * out every top-level key whose value is null (README "Integrity: the hash chain"), and `to_jsonb`
 * gives SQL NULL and JSON `null` alike as `null`: the two hashed the same, so the schema's owner
 * could turn one into the other under a sealed row unseen (found by a review). The service never
 * writes JSON `null` there: the decision write reads its row with `jsonb_populate_record`, which
 * makes a JSON null SQL NULL, and the other inserts pass SQL NULL for an absent value. So a CHECK
 * on each such column, `col is null or jsonb_typeof(col) <> 'null'` (json_typeof for json), found
 * from the catalog for every table in `audit_sources`: decisions.trace, velocity_windows and
 * shadow_matched_rules, and events.details as migrated. A NOT NULL column needs none (JSON `null`
 * is the only way it can be left out of the canonical row).
 *
 * NOT VALID: the constraint holds for every row inserted or updated from now on (an update with
 * triggers off included), without scanning the existing rows under the ACCESS EXCLUSIVE lock
 * this migration's transaction holds (decisions' trace is large and compressed: every value would
 * be read back while decisions wait). `alter table decisions validate constraint …` checks the
 * existing rows with a lock that lets inserts through (README "Integrity: the hash chain").
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    do $$
    declare c record;
    begin
      for c in
        select a.attrelid::regclass as tbl, left(s.source || '_' || a.attname || '_not_json_null', 63) as name, a.attname as col,
          case when coalesce(nullif(ty.typbasetype, 0), ty.oid) = 'json'::regtype then 'json_typeof' else 'jsonb_typeof' end as typeof
        from audit_sources s
        join pg_attribute a on a.attrelid = to_regclass(s.source) and a.attnum > 0 and not a.attisdropped and not a.attnotnull
        join pg_type ty on ty.oid = a.atttypid
        where coalesce(nullif(ty.typbasetype, 0), ty.oid) in ('json'::regtype, 'jsonb'::regtype)
        order by s.source, a.attnum
      loop
        execute format('alter table %s add constraint %I check (%I is null or %s(%I) <> %L) not valid',
          c.tbl, c.name, c.col, c.typeof, c.col, 'null');
      end loop;
    end
    $$`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    do $$
    declare c record;
    begin
      for c in
        select k.conrelid::regclass as tbl, k.conname from pg_constraint k join audit_sources s on k.conrelid = to_regclass(s.source)
        where k.contype = 'c' and k.conname like '%\\_not\\_json\\_null'
      loop
        execute format('alter table %s drop constraint %I', c.tbl, c.conname);
      end loop;
    end
    $$`.execute(db);
}
