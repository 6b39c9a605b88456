import { sql, type Kysely } from "kysely";

/**
 * The custody platform's events (POST /v1/events), as delivered and verified. Append-only like
 * `decisions`: an event is a fact the platform told us, and the record of it must not change.
 * `body` and `signature` are the exact bytes and header received, so any row can be re-verified
 * against the platform's public key later; `payload` is the same body as jsonb, for queries.
 *
 * `event_effects` records that an event's effect (voiding velocity charges, re-syncing a vault's
 * wallets) completed, so a redelivery of a handled event does nothing, while a redelivery of one
 * whose effect failed runs it again.
 *
 * `transaction_states` is each transaction's state history, beside its `decisions`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("seq", "bigint", (c) => c.generatedAlwaysAsIdentity().notNull().unique())
    .addColumn("received_at", "timestamptz", (c) => c.notNull())
    .addColumn("vault", "text")
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("resource_type", "text")
    .addColumn("resource", "text")
    .addColumn("new_state", "text")
    .addColumn("details", "jsonb")
    .addColumn("payload", "jsonb", (c) => c.notNull())
    .addColumn("body", "bytea", (c) => c.notNull())
    .addColumn("signature", "text", (c) => c.notNull())
    .addCheckConstraint("events_new_state_only_for_state_updates", sql`new_state is null or type = 'TRANSACTION_STATE_UPDATED'`)
    .execute();

  await db.schema.createIndex("events_by_resource").on("events").columns(["resource", "seq"]).execute();
  await db.schema.createIndex("events_by_vault_time").on("events").columns(["vault", "received_at"]).execute();

  await db.schema
    .createTable("event_effects")
    .addColumn("event_id", "text", (c) => c.primaryKey().references("events.id"))
    .addColumn("effect", "text", (c) => c.notNull())
    .addColumn("completed_at", "timestamptz", (c) => c.notNull())
    .execute();

  for (const table of ["events", "event_effects"]) {
    await sql`create trigger ${sql.raw(`${table}_append_only`)} before update or delete on ${sql.table(table)}
      for each row execute function countersign_refuse_change()`.execute(db);
    await sql`create trigger ${sql.raw(`${table}_no_truncate`)} before truncate on ${sql.table(table)}
      for each statement execute function countersign_refuse_change()`.execute(db);
  }

  // TRANSACTION_CREATED counts as the state CREATED: the platform creates every transaction in
  // that state and announces it with that event rather than a state update. Order by seq (arrival
  // order); the platform's payload carries no timestamp, and deliveries can arrive out of order.
  await sql`
    create view transaction_states as
    select
      e.resource as transaction_name,
      e.vault,
      case when e.type = 'TRANSACTION_CREATED' then 'CREATED' else e.new_state end as state,
      e.type as event_type,
      e.id as event_id,
      e.received_at,
      e.seq
    from events e
    where e.resource is not null
      and (e.type = 'TRANSACTION_CREATED' or (e.type = 'TRANSACTION_STATE_UPDATED' and e.new_state is not null))`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop view transaction_states`.execute(db);
  await db.schema.dropTable("event_effects").execute();
  await db.schema.dropTable("events").execute();
}
