import { sql, type Kysely } from "kysely";

/**
 * No decision dated more than a day ahead of the database's clock in `decisions_default`. A row
 * there keeps its month out of a partition for good: `decisions_create_month` refuses a month that
 * the default partition holds rows for (moving them out would mean deleting from an append-only
 * table), so that month could never be archived by detaching it. The writer may insert any
 * `decided_at` (found by a review: one row 14 months ahead pinned that month), and months are
 * created at most twelve ahead, so such a row always lands in the default partition.
 *
 * A BEFORE INSERT trigger on `decisions_default` alone: a row trigger on a partition fires only for
 * the rows routed to it, so a decision that lands in its month's partition (every decision while
 * the service keeps months ahead) never runs it. A CHECK cannot read the clock, a trigger on
 * `decisions` would run for every decision, and `countersign_decision_write` is not the only way
 * in (the writer may INSERT directly). A row dated in the past still lands in the default
 * partition (a clock far behind must not fail a decision); one dated up to a day ahead too.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function decisions_default_refuse_ahead() returns trigger
    language plpgsql set search_path = pg_catalog, pg_temp as $$
    begin
      if new.decided_at > now() + interval '1 day' then
        raise exception 'decision % is dated %, more than a day ahead of the database''s clock (%)', new.id, new.decided_at, now()
          using errcode = 'check_violation',
            hint = 'No monthly partition holds that time, and a row in decisions_default would keep its month out of a partition for good: check the clock of the host that decided.';
      end if;
      return new;
    end $$`.execute(db);
  await sql`create trigger decisions_default_not_ahead before insert on decisions_default
    for each row execute function decisions_default_refuse_ahead()`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists decisions_default_not_ahead on decisions_default`.execute(db);
  await sql`drop function if exists decisions_default_refuse_ahead()`.execute(db);
}
