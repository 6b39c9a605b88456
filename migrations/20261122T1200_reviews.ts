import { sql, type Kysely } from "kysely";

/**
 * Human review of deferred transactions (CONTRACT.md section 9). Both tables are append-only like
 * `decisions` (the same refusing trigger): a review is opened once per transaction name and content
 * digest, and every action on it (opened, approved, rejected, expired) is a new row; the review's
 * state is read from its actions, never stored and updated. Both are links of the audit hash chain
 * (20261122T1000_audit_3_chain), and review actions are part of `transaction_timeline`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("reviews")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("seq", "bigint", (c) => c.generatedAlwaysAsIdentity().notNull().unique())
    .addColumn("transaction_name", "text", (c) => c.notNull())
    .addColumn("vault", "text", (c) => c.notNull())
    .addColumn("content_digest", "text", (c) => c.notNull())
    .addColumn("opened_at", "timestamptz", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("opened_by", "uuid", (c) => c.notNull())
    .addColumn("initiator", "text")
    .addColumn("requirements", "jsonb", (c) => c.notNull())
    .addColumn("explanation", "jsonb", (c) => c.notNull())
    .addUniqueConstraint("reviews_once_per_content", ["transaction_name", "content_digest"])
    .addCheckConstraint("reviews_expire_after_opening", sql`expires_at > opened_at`)
    .execute();
  await db.schema.createIndex("reviews_by_time").on("reviews").column("opened_at").execute();

  await db.schema
    .createTable("review_actions")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("seq", "bigint", (c) => c.generatedAlwaysAsIdentity().notNull().unique())
    .addColumn("at", "timestamptz", (c) => c.notNull())
    .addColumn("transaction_name", "text", (c) => c.notNull())
    .addColumn("content_digest", "text", (c) => c.notNull())
    .addColumn("identity", "text")
    .addColumn("action", "text", (c) => c.notNull().check(sql`action in ('opened', 'approved', 'rejected', 'expired')`))
    .addColumn("group", "text")
    .addColumn("comment", "text")
    .addForeignKeyConstraint("review_actions_of_a_review", ["transaction_name", "content_digest"], "reviews", ["transaction_name", "content_digest"])
    .addCheckConstraint("review_actions_by_someone", sql`action in ('opened', 'expired') or (identity is not null and "group" is not null)`)
    .execute();
  await db.schema.createIndex("review_actions_by_transaction").on("review_actions").columns(["transaction_name", "seq"]).execute();
  // One approval per identity and group, one rejection and one expiry per review, whatever races.
  await sql`create unique index review_actions_one_approval on review_actions (transaction_name, content_digest, identity, "group")
    where action = 'approved'`.execute(db);
  await sql`create unique index review_actions_one_close on review_actions (transaction_name, content_digest, action)
    where action in ('rejected', 'expired')`.execute(db);

  // decisions is partitioned: the opening decision is checked at insert (20261122T1000_audit_5_references).
  await sql`create trigger reviews_opened_by_exists before insert on reviews
    for each row execute function decisions_reference_exists('opened_by')`.execute(db);
  for (const table of ["reviews", "review_actions"]) {
    await sql`create trigger ${sql.raw(`${table}_append_only`)} before update or delete on ${sql.table(table)}
      for each row execute function countersign_refuse_change()`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_no_truncate`)} before truncate on ${sql.table(table)}
      for each statement execute function countersign_refuse_change()`.execute(db);
  }
  // Into the hash chain, with the roles' privileges (writer: SELECT and INSERT only; auditor: SELECT).
  await sql`select audit_chain_register('reviews', 'id', 'opened_at')`.execute(db);
  await sql`select audit_chain_register('review_actions', 'id', 'at')`.execute(db);
  await timelineWithReviewActions(db);
}

/** `transaction_timeline` of 20261122T1000_audit_4_views, with one more branch: review actions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function timelineWithReviewActions(db: Kysely<any>): Promise<void> {
  await sql`
    create or replace view transaction_timeline as
    select d.transaction_name, d.vault, d.decided_at as at,
      case when d.replayed then 'repeat' when d.replay_of is not null then 'conflict' else 'decision' end as kind,
      d.decision as outcome, d.reasons ->> 0 as detail,
      'decisions'::text as source, d.id::text as row_key, d.seq
    from decisions d
    union all
    select e.resource, e.vault, e.received_at, 'event', coalesce(e.new_state, e.type), e.type,
      'events'::text, e.id, e.seq
    from events e
    where e.resource like 'vaults/%/transactions/%'
    union all
    select a.transaction_name, 'vaults/' || split_part(a.transaction_name, '/', 2), a.at, 'review', a.action,
      concat_ws(': ', a.identity, a.comment),
      'review_actions'::text, a.id::text, a.seq
    from review_actions a`.execute(db);
}
