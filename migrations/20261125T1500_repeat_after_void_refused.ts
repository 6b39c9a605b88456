import { sql, type Kysely } from "kysely";

/**
 * The database refuses a signed repeat of an allow whose velocity charges are voided. Since
 * 20261125T1000_repeat_after_void the service denies such a delivery (src/decision/decide.ts,
 * `repeat`), but the rule lived in the code alone: during a rolling upgrade from a version before
 * it, the old pods decide beside the new ones on the migrated database, find the first allow through
 * the same read, ignore its `voided`, and write the repeat of the allow, which the co-signer signs
 * again with no window counting it (found by a review of replicas). With this trigger that write
 * fails, the old pod defers (503), and the co-signer's next poll reaches a pod that denies. A
 * repeat whose allow was voided between its read and its write (a void takes the groups' locks,
 * not the name's) fails the same way, and the next delivery is denied.
 *
 * A BEFORE INSERT row trigger whose WHEN clause lets only signed repeats reach its function: a
 * fresh decision (or a denial, or a deferral) costs the clause's evaluation and nothing more; a
 * signed repeat, one lookup in `velocity_charges_by_decision`. It runs as the inserting role (the
 * writer reads the charges), with `search_path` pinned so no table of another schema stands in.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function decisions_refuse_repeat_after_void() returns trigger
    language plpgsql set search_path = pg_catalog, public, pg_temp as $$
    begin
      if exists (select 1 from velocity_charges c where c.decision_id = new.replay_of and c.voided_at is not null) then
        raise exception 'decision % repeats allow % as signed, but that allow''s velocity charges were voided: it is not signed again', new.id, new.replay_of
          using errcode = 'check_violation',
            hint = 'A process of a version before 20261125T1000_repeat_after_void wrote it; the versions in force deny such a delivery.';
      end if;
      return new;
    end $$`.execute(db);
  await sql`create trigger decisions_repeat_after_void before insert on decisions for each row
    when (new.replayed and new.decision = 'allow')
    execute function decisions_refuse_repeat_after_void()`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger if exists decisions_repeat_after_void on decisions`.execute(db);
  await sql`drop function if exists decisions_refuse_repeat_after_void()`.execute(db);
}
