import { sql, type Kysely } from "kysely";

/**
 * Human review of deferred transactions (CONTRACT.md section 9). Both tables are append-only like
 * `decisions` (the same refusing trigger): a review is opened once per transaction name and content
 * digest, and every action on it (opened, approved, rejected, expired) is a new row; the review's
 * state is read from its actions, never stored and updated.
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
    .addColumn("opened_by", "uuid", (c) => c.notNull().references("decisions.id"))
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

  for (const table of ["reviews", "review_actions"]) {
    await sql`create trigger ${sql.raw(`${table}_append_only`)} before update or delete on ${sql.table(table)}
      for each row execute function countersign_refuse_change()`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_no_truncate`)} before truncate on ${sql.table(table)}
      for each statement execute function countersign_refuse_change()`.execute(db);
  }
}
