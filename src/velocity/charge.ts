/**
 * Charging: an allowed transfer is charged to each distinct group key of its windows, inside the
 * caller's recording transaction (the one that inserts the allow decision row), after the caller
 * took the groups' locks and read the totals it evaluated against.
 */
import { sql, type Kysely } from "kysely";
import type { Database } from "../database.js";
import { groupHashHex } from "./group-hash.js";
import { assertGroupsLocked, requireTransaction } from "./locks.js";
import { BUCKET_WIDTHS } from "./window-plan.js";

export interface ChargeInput {
  decisionId: string;
  transactionName: string;
  vault: string;
  transferIndex: number;
  key: string;
  /** Whole units as a plain decimal string; null when only a raw amount is known. */
  amount: string | null;
  /** Dollars at the decision's price; null (or omitted) when it had none. */
  usd?: string | null;
  chargedAt: Date;
}

const PLAIN_DECIMAL = /^[0-9]+(\.[0-9]+)?$/;

export async function recordCharges(trx: Kysely<Database>, charges: readonly ChargeInput[]): Promise<void> {
  requireTransaction(trx, "recordCharges");
  if (charges.length === 0) return;
  charges.forEach(checkCharge);
  assertGroupsLocked(
    trx,
    charges.map((c) => c.key),
  );
  await rememberGroups(trx, charges);
  await insertChargesAndBuckets(trx, charges);
}

/** Anything numeric accepts but a plain decimal ('1e3', '-5', 'NaN', 'Infinity') is refused here. */
function checkCharge(c: ChargeInput): void {
  if (c.amount !== null && !PLAIN_DECIMAL.test(c.amount)) throw new Error(`charge amount is not a plain decimal`);
  if (c.usd != null && !PLAIN_DECIMAL.test(c.usd)) throw new Error(`charge dollars are not a plain decimal`);
  if (!Number.isSafeInteger(c.transferIndex) || c.transferIndex < 0) throw new Error("charge transfer index is invalid");
  if (!Number.isFinite(c.chargedAt.getTime())) throw new Error("charge time is invalid");
}

async function rememberGroups(trx: Kysely<Database>, charges: readonly ChargeInput[]): Promise<void> {
  const first = new Map<string, Date>();
  for (const c of charges) if (!first.has(c.key)) first.set(c.key, c.chargedAt);
  const keys = [...first.keys()];
  await sql`
    insert into velocity_groups (group_hash, group_key, first_charged_at)
    select decode(h, 'hex'), k, t
    from unnest(${keys.map(groupHashHex)}::text[], ${keys}::text[], ${keys.map((k) => first.get(k)!.toISOString())}::timestamptz[]) as g(h, k, t)
    on conflict (group_hash) do nothing`.execute(trx);
}

/**
 * One statement: the charge rows, and every bucket they fall in (each width) raised by their sums.
 * Grouping first matters: an upsert may touch each bucket row only once per statement.
 */
async function insertChargesAndBuckets(trx: Kysely<Database>, charges: readonly ChargeInput[]): Promise<void> {
  await sql`
    with input as (
      select decision_id, transaction_name, vault, transfer_index, decode(hash, 'hex') as group_hash, amount, usd, charged_at
      from unnest(
        ${charges.map((c) => c.decisionId)}::uuid[], ${charges.map((c) => c.transactionName)}::text[],
        ${charges.map((c) => c.vault)}::text[], ${charges.map((c) => c.transferIndex)}::int4[],
        ${charges.map((c) => groupHashHex(c.key))}::text[], ${charges.map((c) => c.amount)}::numeric[],
        ${charges.map((c) => c.chargedAt.toISOString())}::timestamptz[], ${charges.map((c) => c.usd ?? null)}::numeric[]
      ) as i(decision_id, transaction_name, vault, transfer_index, hash, amount, charged_at, usd)
    ), charged as (
      insert into velocity_charges (decision_id, transaction_name, vault, transfer_index, group_hash, amount, usd, charged_at)
      select decision_id, transaction_name, vault, transfer_index, group_hash, amount, usd, charged_at from input
    )
    insert into velocity_buckets as b (group_hash, width_seconds, bucket_start, amount, count, usd)
    select i.group_hash, w.width, velocity_bucket_start(w.width, i.charged_at), sum(coalesce(i.amount, 0)), count(*), sum(coalesce(i.usd, 0))
    from input i cross join unnest(${[...BUCKET_WIDTHS]}::int4[]) as w(width)
    group by 1, 2, 3
    on conflict (group_hash, width_seconds, bucket_start)
      do update set amount = b.amount + excluded.amount, count = b.count + excluded.count, usd = b.usd + excluded.usd`.execute(trx);
}
