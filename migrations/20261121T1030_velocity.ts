import { sql, type Kysely } from "kysely";

/**
 * The velocity ledger (see src/velocity/README.md).
 *
 * - `velocity_groups`: each group key's text, once; everything else refers to its SHA-256.
 * - `velocity_charges`: one row per (allowed transfer, distinct group key), kept forever. The only
 *   change the database accepts is setting `voided_at` once; DELETE and TRUNCATE are refused.
 * - `velocity_buckets`: running (amount, count) per group and epoch-aligned bucket of 1 s, 1 min,
 *   1 h and 1 day, kept equal to the sum of the group's non-voided charges in that bucket.
 *
 * The bucket widths are written out here rather than imported: a landed migration must not change
 * when the code does. `velocity_bucket_start` is the one definition of "which bucket", used by
 * charging, voiding and the bench's bulk seeding alike; date_bin on timestamptz works on absolute
 * time, so the session's TimeZone cannot move a bucket edge.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    create function velocity_bucket_start(width_seconds integer, at timestamptz) returns timestamptz
    language sql immutable strict parallel safe
    as $$ select date_bin(make_interval(secs => width_seconds), at, timestamptz '1970-01-01T00:00:00Z') $$`.execute(db);

  await db.schema
    .createTable("velocity_groups")
    .addColumn("group_hash", "bytea", (c) => c.primaryKey().check(sql`octet_length(group_hash) = 32`))
    // Not indexed: the hash is the identity, and a key of any length must store (a btree entry cannot exceed ~2.7 kB).
    .addColumn("group_key", "text", (c) => c.notNull())
    .addColumn("first_charged_at", "timestamptz", (c) => c.notNull())
    .execute();

  await createCharges(db);
  await createBuckets(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function createCharges(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("velocity_charges")
    .addColumn("id", "bigint", (c) => c.generatedAlwaysAsIdentity().primaryKey())
    .addColumn("decision_id", "uuid", (c) => c.notNull().references("decisions.id"))
    .addColumn("transaction_name", "text", (c) => c.notNull())
    .addColumn("vault", "text", (c) => c.notNull())
    .addColumn("transfer_index", "integer", (c) => c.notNull().check(sql`transfer_index >= 0`))
    .addColumn("group_hash", "bytea", (c) => c.notNull().references("velocity_groups.group_hash"))
    // null: only a raw amount is known (SEP-41); the charge counts but adds nothing to sums.
    // 'NaN' and 'Infinity' are valid numerics and would poison every sum: refused.
    .addColumn("amount", "numeric", (c) => c.check(sql`amount >= 0 and amount < 'Infinity'`))
    .addColumn("charged_at", "timestamptz", (c) => c.notNull())
    // No ordering check against charged_at: another process's clock may be a little behind, and a
    // void that fails on clock skew would leave a charge counting that should not.
    .addColumn("voided_at", "timestamptz")
    // A transaction's first allow is final, so a transfer is charged to a group at most once.
    .addUniqueConstraint("velocity_charges_once", ["transaction_name", "transfer_index", "group_hash"])
    .execute();

  // The old edge of a window: live charges of one group in a sub-second range, read index-only.
  await sql`create index velocity_charges_live_by_group_time on velocity_charges
    (group_hash, charged_at) include (amount) where voided_at is null`.execute(db);
  await db.schema.createIndex("velocity_charges_by_transaction").on("velocity_charges").column("transaction_name").execute();
  await db.schema.createIndex("velocity_charges_by_decision").on("velocity_charges").column("decision_id").execute();

  await sql`
    create function velocity_charges_guard() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and old.voided_at is null and new.voided_at is not null
         and (new.id, new.decision_id, new.transaction_name, new.vault, new.transfer_index, new.group_hash, new.amount, new.charged_at)
             is not distinct from
             (old.id, old.decision_id, old.transaction_name, old.vault, old.transfer_index, old.group_hash, old.amount, old.charged_at)
      then
        return new;
      end if;
      raise exception 'velocity_charges keeps its history: only setting voided_at once is allowed (% refused)', tg_op
        using errcode = 'insufficient_privilege';
    end
    $$`.execute(db);
  await sql`create trigger velocity_charges_history before update or delete on velocity_charges
    for each row execute function velocity_charges_guard()`.execute(db);
  await sql`create trigger velocity_charges_no_truncate before truncate on velocity_charges
    for each statement execute function velocity_charges_guard()`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function createBuckets(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("velocity_buckets")
    .addColumn("group_hash", "bytea", (c) => c.notNull().references("velocity_groups.group_hash"))
    .addColumn("width_seconds", "integer", (c) => c.notNull().check(sql`width_seconds in (1, 60, 3600, 86400)`))
    .addColumn("bucket_start", "timestamptz", (c) => c.notNull())
    // A negative running total means a void without its charge: refuse it rather than under-count.
    .addColumn("amount", "numeric", (c) => c.notNull().check(sql`amount >= 0 and amount < 'Infinity'`))
    .addColumn("count", "bigint", (c) => c.notNull().check(sql`count >= 0`))
    .addPrimaryKeyConstraint("velocity_buckets_pk", ["group_hash", "width_seconds", "bucket_start"])
    .addCheckConstraint("velocity_buckets_aligned", sql`bucket_start = velocity_bucket_start(width_seconds, bucket_start)`)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("velocity_buckets").execute();
  await db.schema.dropTable("velocity_charges").execute();
  await db.schema.dropTable("velocity_groups").execute();
  await sql`drop function velocity_charges_guard()`.execute(db);
  await sql`drop function velocity_bucket_start(integer, timestamptz)`.execute(db);
}
