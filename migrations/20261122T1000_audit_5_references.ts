import { sql, type Kysely } from "kysely";

/**
 * A foreign key cannot point at `decisions.id` any more: on a partitioned table a unique key must
 * include the partition column (`decided_at`). A later table that refers to a decision checks it at
 * insert with this trigger function instead, naming its referring column:
 *
 *   create trigger reviews_opened_by_exists before insert on reviews
 *     for each row execute function decisions_reference_exists('opened_by');
 *
 * Decisions are never updated or deleted, so a check at insert holds for good (archiving a month
 * detaches it on purpose, which a foreign key would forbid).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function decisions_reference_exists() returns trigger language plpgsql as $$
    declare
      ref uuid := (to_jsonb(new) ->> tg_argv[0])::uuid;
    begin
      if ref is not null and not exists (select 1 from decisions where id = ref) then
        raise exception '%.% % refers to no decision', tg_table_name, tg_argv[0], ref using errcode = 'foreign_key_violation';
      end if;
      return new;
    end
    $$`.execute(db);
}
