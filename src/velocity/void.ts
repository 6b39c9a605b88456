/**
 * Voiding: a transaction that ended without moving money (CANCELED, FAILED, DECLINED, ...) stops
 * counting in every window. Its charge rows stay, stamped with voided_at; the buckets they were
 * added to are lowered by the same amounts and dollars (as charged, whatever prices are now), under the same group locks that charging takes, so
 * a void never races a "read → evaluate → charge" on the same group.
 *
 * A transaction the platform reported CONFIRMED moved its money: it is never voided (checked
 * under the groups' locks), and one voided before the report counts again (countChargesAgain,
 * under the same locks), so whichever of the two commits first, the charges end up counted.
 */
import { randomUUID } from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { Database } from "../database.js";
import { transactionConfirmed } from "../events/store.js";
import { groupHashHex } from "./group-hash.js";
import { lockWindowGroups } from "./locks.js";
import { FINE_BUCKETS_KEPT_SECONDS } from "./window-plan.js";
import { BUCKET_WIDTHS } from "./window-plan.js";

/** Who voided by hand, and why: recorded in `velocity_voids` with the void (an event's void is recorded as the event). */
export interface ManualVoid {
  operator: string;
  reason: string;
}

/**
 * Idempotent: returns how many charges this call voided (0 when already voided, or none exist).
 * With `manual`, a void that voided any charge is recorded in the audit trail, in its transaction.
 */
export async function voidCharges(db: Kysely<Database>, transactionName: string, at: Date, manual?: ManualVoid): Promise<Voided> {
  if (!Number.isFinite(at.getTime())) throw new Error("void time is invalid");
  const run = async (trx: Kysely<Database>) => {
    const result = await voidIn(trx, transactionName, at);
    if (manual && result.voided > 0) await recordManualVoid(trx, transactionName, at, result.voided, manual);
    return result;
  };
  return inTransaction(db, run);
}

/** In the caller's transaction when given one, else in a new one of its own. */
function inTransaction<T>(db: Kysely<Database>, run: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

async function recordManualVoid(trx: Kysely<Database>, transactionName: string, at: Date, charges: number, manual: ManualVoid): Promise<void> {
  await trx.insertInto("velocity_voids").values({ id: randomUUID(), at, transaction_name: transactionName, charges, operator: manual.operator, reason: manual.reason }).execute();
}

/** How many charges a void voided; `confirmed` when it voided none because the platform reported the transaction CONFIRMED. */
export interface Voided {
  voided: number;
  confirmed?: true;
}

async function voidIn(trx: Kysely<Database>, transactionName: string, at: Date): Promise<Voided> {
  const keys = await groupsOfCharges(trx, transactionName, "live");
  if (keys.length === 0) return { voided: 0 };
  await lockWindowGroups(trx, keys);
  // Under the locks: a CONFIRMED stored before now is seen here; one stored after finds these
  // charges voided and counts them again, under the same locks, once this commits.
  if (await transactionConfirmed(trx, transactionName)) return { voided: 0, confirmed: true };
  return { voided: await voidLockedCharges(trx, transactionName, keys, at) };
}

/** The group keys of a transaction's live charges, or of all its charges. */
async function groupsOfCharges(trx: Kysely<Database>, transactionName: string, which: "live" | "all"): Promise<string[]> {
  let query = trx
    .selectFrom("velocity_charges")
    .innerJoin("velocity_groups", "velocity_groups.group_hash", "velocity_charges.group_hash")
    .select("velocity_groups.group_key")
    .distinct()
    .where("velocity_charges.transaction_name", "=", transactionName);
  if (which === "live") query = query.where("velocity_charges.voided_at", "is", null);
  const groups = await query.execute();
  return groups.map((g) => g.group_key);
}

/**
 * The platform reported the transaction CONFIRMED: charges voided before (by an operator's
 * `velocity void` of a DROPPED transaction someone rebroadcast, or a failure reported before the
 * success) count again, and their buckets are raised by the same amounts (re-created if pruned,
 * which no window reads). Idempotent: returns how many charges this call counted again.
 */
export async function countChargesAgain(db: Kysely<Database>, transactionName: string): Promise<{ counted: number }> {
  const run = async (trx: Kysely<Database>) => {
    // Every charge's groups, voided or not, locked before looking for voided ones: a void under
    // way has checked for CONFIRMED under these locks and voided without committing yet, so its
    // charges still read as live; looked for before the locks, they were not found, nothing was
    // counted again, and the void then committed with the payment mined.
    const keys = await groupsOfCharges(trx, transactionName, "all");
    if (keys.length === 0) return { counted: 0 };
    await lockWindowGroups(trx, keys);
    return { counted: await countLockedChargesAgain(trx, transactionName, keys) };
  };
  return inTransaction(db, run);
}

async function countLockedChargesAgain(trx: Kysely<Database>, transactionName: string, keys: string[]): Promise<number> {
  const { rows } = await sql<{ counted: string }>`
    with counted as (
      update velocity_charges set voided_at = null
      where transaction_name = ${transactionName} and voided_at is not null
        and group_hash = any (select decode(h, 'hex') from unnest(${keys.map(groupHashHex)}::text[]) as h)
      returning group_hash, amount, usd, charged_at
    ), raised as (
      insert into velocity_buckets as b (group_hash, width_seconds, bucket_start, amount, count, usd)
      select c.group_hash, w.width, velocity_bucket_start(w.width, c.charged_at), sum(coalesce(c.amount, 0)), count(*), sum(coalesce(c.usd, 0))
      from counted c cross join unnest(${[...BUCKET_WIDTHS]}::int4[]) as w(width)
      group by 1, 2, 3
      on conflict (group_hash, width_seconds, bucket_start)
        do update set amount = b.amount + excluded.amount, count = b.count + excluded.count, usd = b.usd + excluded.usd
    )
    select count(*)::text as counted from counted`.execute(trx);
  return Number(rows[0]?.counted ?? 0);
}

/**
 * Only charges of the groups just locked: one inserted for another group after the lookup above
 * stays counted (the safe side) until the next void. `voided_at is null` is re-checked on the
 * latest row version, so of two concurrent voids exactly one lowers the buckets.
 */
async function voidLockedCharges(trx: Kysely<Database>, transactionName: string, keys: string[], at: Date): Promise<number> {
  const coarsest = BUCKET_WIDTHS[BUCKET_WIDTHS.length - 1];
  const { rows } = await sql<{ voided: string; missing: string }>`
    with voided as (
      update velocity_charges set voided_at = ${at.toISOString()}::timestamptz
      where transaction_name = ${transactionName} and voided_at is null
        and group_hash = any (select decode(h, 'hex') from unnest(${keys.map(groupHashHex)}::text[]) as h)
      returning group_hash, amount, usd, charged_at
    ), debits as (
      select v.group_hash, w.width, velocity_bucket_start(w.width, v.charged_at) as bucket_start,
             sum(coalesce(v.amount, 0)) as amount, count(*) as count, sum(coalesce(v.usd, 0)) as usd
      from voided v cross join unnest(${[...BUCKET_WIDTHS]}::int4[]) as w(width)
      group by 1, 2, 3
    ), lowered as (
      update velocity_buckets b set amount = b.amount - d.amount, count = b.count - d.count, usd = b.usd - d.usd
      from debits d
      where b.group_hash = d.group_hash and b.width_seconds = d.width and b.bucket_start = d.bucket_start
      returning b.group_hash, b.width_seconds, b.bucket_start
    )
    select (select count(*) from voided)::text as voided,
      -- A fine bucket older than the pruner's floor may be gone (src/velocity/prune.ts): no window reads it.
      (select count(*) from debits d
       where (d.width = ${coarsest} or d.bucket_start >= ${at.toISOString()}::timestamptz - make_interval(secs => ${FINE_BUCKETS_KEPT_SECONDS}))
         and not exists (select 1 from lowered l where l.group_hash = d.group_hash and l.width_seconds = d.width and l.bucket_start = d.bucket_start)
      )::text as missing`.execute(trx);
  const row = rows[0];
  // A charge without its bucket rows means the ledger is corrupt: fail (the void rolls back and
  // the charge keeps counting, the safe side) rather than leave the totals silently wrong.
  if (!row || row.missing !== "0") throw new Error("velocity buckets do not match the charges being voided");
  return Number(row.voided);
}
