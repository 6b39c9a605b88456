import { sql, type Kysely } from "kysely";

/**
 * The audit trail. Append-only: UPDATE, DELETE and TRUNCATE are refused by triggers, so neither
 * the service nor an operator with the service's credentials can rewrite history.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("decisions")
    .addColumn("id", "uuid", (c) => c.primaryKey())
    .addColumn("seq", "bigint", (c) => c.generatedAlwaysAsIdentity().notNull().unique())
    .addColumn("decided_at", "timestamptz", (c) => c.notNull())
    .addColumn("transaction_name", "text", (c) => c.notNull())
    .addColumn("vault", "text", (c) => c.notNull())
    .addColumn("decision", "text", (c) => c.notNull().check(sql`decision in ('allow', 'deny', 'defer')`))
    .addColumn("sign_transaction", "boolean")
    .addColumn("http_status", "integer", (c) => c.notNull())
    .addColumn("replayed", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("replay_of", "uuid", (c) => c.references("decisions.id"))
    .addColumn("policy_version", "text", (c) => c.notNull())
    .addColumn("policy_digest", "text", (c) => c.notNull())
    .addColumn("matched_rules", "jsonb", (c) => c.notNull())
    .addColumn("reasons", "jsonb", (c) => c.notNull())
    .addColumn("facts", "jsonb", (c) => c.notNull())
    .addColumn("transaction", "jsonb", (c) => c.notNull())
    .addColumn("content_digest", "text", (c) => c.notNull())
    .addColumn("request_id", "text", (c) => c.notNull())
    .addColumn("duration_ms", "double precision", (c) => c.notNull())
    .addCheckConstraint(
      "decisions_sign_matches_decision",
      sql`(decision = 'defer' and sign_transaction is null) or (decision = 'allow' and sign_transaction) or (decision = 'deny' and not sign_transaction)`,
    )
    .execute();

  await db.schema.createIndex("decisions_by_transaction").on("decisions").columns(["transaction_name", "seq"]).execute();
  await db.schema.createIndex("decisions_by_time").on("decisions").column("decided_at").execute();
  await db.schema.createIndex("decisions_by_vault_time").on("decisions").columns(["vault", "decided_at"]).execute();

  await sql`
    create function countersign_refuse_change() returns trigger language plpgsql as $$
    begin
      raise exception 'table % is append-only: % is refused', tg_table_name, tg_op
        using errcode = 'insufficient_privilege';
    end
    $$`.execute(db);
  await sql`create trigger decisions_append_only before update or delete on decisions
    for each row execute function countersign_refuse_change()`.execute(db);
  await sql`create trigger decisions_no_truncate before truncate on decisions
    for each statement execute function countersign_refuse_change()`.execute(db);
}
