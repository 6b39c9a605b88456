/**
 * Reading window totals: approved (live) amount and count of a group over (now − duration, …],
 * for any number of windows in one round trip. The cost per window is bounded by the plan in
 * window-plan.ts — about a hundred small index range reads for a 24 h window — and does not grow
 * with the number of charges in it.
 */
import Big from "big.js";
import { sql, type Kysely } from "kysely";
import type { WindowTotal } from "../core/facts/types.js";
import { windowTotalId, type WindowQuery } from "../core/facts/window-query.js";
import type { Database } from "../database.js";
import { isoDate } from "../core/iso-time.js";
import { groupHashHex } from "./group-hash.js";
import { BUCKET_WIDTHS, planWindow } from "./window-plan.js";

/** Flattened per-query pieces (by the query's index, `ord`), as parallel arrays: one statement, any number of queries. */
export interface Pieces {
  /** Each query's group hash, hex, by ord. */
  hashes: string[];
  bucket: { ord: number[]; width: number[]; from: string[]; until: string[] };
  edge: { ord: number[]; after: string[]; until: string[] };
}

export function piecesOf(queries: readonly WindowQuery[], now: Date, widths: readonly number[]): Pieces {
  const p: Pieces = { hashes: [], bucket: { ord: [], width: [], from: [], until: [] }, edge: { ord: [], after: [], until: [] } };
  queries.forEach((q, ord) => {
    p.hashes.push(groupHashHex(q.key));
    const plan = planWindow(now, q.durationSeconds, widths);
    for (const range of plan.buckets) {
      p.bucket.ord.push(ord);
      p.bucket.width.push(range.widthSeconds);
      p.bucket.from.push(isoDate(range.from));
      p.bucket.until.push(range.until === null ? "infinity" : isoDate(range.until));
    }
    p.edge.ord.push(ord);
    p.edge.after.push(isoDate(plan.edgeAfter));
    p.edge.until.push(isoDate(plan.edgeUntil));
  });
  return p;
}

export async function readWindowTotals(
  trx: Kysely<Database>,
  queries: readonly WindowQuery[],
  now: Date,
  /** The ledger's layout; only the layout bench passes another. */
  widths: readonly number[] = BUCKET_WIDTHS,
): Promise<Map<string, WindowTotal>> {
  const totals = new Map<string, WindowTotal>();
  if (queries.length === 0) return totals;
  const { rows } = await windowTotalsQuery(queries, now, widths).execute(trx);
  for (const row of rows) {
    const query = queries[row.ord];
    if (query) totals.set(windowTotalId(query.window, query.key), toTotal(row));
  }
  return totals;
}

/** The one statement behind readWindowTotals (the layout bench EXPLAINs it). */
export function windowTotalsQuery(queries: readonly WindowQuery[], now: Date, widths: readonly number[] = BUCKET_WIDTHS) {
  const { hashes, bucket: b, edge: e } = piecesOf(queries, now, widths);
  const hashesOf = (ords: number[]) => ords.map((ord) => hashes[ord]!);
  // Lateral subqueries force one parameterised index range read per piece, whatever the planner
  // estimates for unnest.
  return sql<{ ord: number; amount: string; count: string; usd: string }>`
    with bucket_ranges as (
      select r.ord, decode(r.hash, 'hex') as grp, r.width, r.from_at, r.until_at
      from unnest(${b.ord}::int4[], ${hashesOf(b.ord)}::text[], ${b.width}::int4[], ${b.from}::timestamptz[], ${b.until}::timestamptz[])
        as r(ord, hash, width, from_at, until_at)
    ), edges as (
      select r.ord, decode(r.hash, 'hex') as grp, r.after_at, r.until_at
      from unnest(${e.ord}::int4[], ${hashesOf(e.ord)}::text[], ${e.after}::timestamptz[], ${e.until}::timestamptz[])
        as r(ord, hash, after_at, until_at)
    ), pieces as (
      select r.ord, s.amount, s.count, s.usd
      from bucket_ranges r cross join lateral (
        select sum(v.amount) as amount, sum(v.count) as count, sum(v.usd) as usd from velocity_buckets v
        where v.group_hash = r.grp and v.width_seconds = r.width and v.bucket_start >= r.from_at and v.bucket_start < r.until_at
      ) s
      union all
      select r.ord, s.amount, s.count, s.usd
      from edges r cross join lateral (
        select sum(c.amount) as amount, count(*) as count, sum(c.usd) as usd from velocity_charges c
        where c.group_hash = r.grp and c.voided_at is null and c.charged_at > r.after_at and c.charged_at < r.until_at
      ) s
    )
    select ord, coalesce(sum(amount), 0)::text as amount, coalesce(sum(count), 0)::text as count, coalesce(sum(usd), 0)::text as usd
    from pieces group by ord`;
}

/** Two pieces of one window added up. */
export function addTotals(a: WindowTotal, b: WindowTotal): WindowTotal {
  const count = a.count + b.count;
  if (!Number.isSafeInteger(count)) throw new Error("velocity count is out of range");
  return { amount: new Big(a.amount).plus(b.amount).toFixed(), count, usd: new Big(a.usd ?? "0").plus(b.usd ?? "0").toFixed() };
}

/** Canonical decimal text ("1000", not "1000.000000"); a corrupt total is an internal error. */
export function toTotal(row: { amount: string; count: string; usd: string }): WindowTotal {
  const count = Number(row.count);
  if (!Number.isSafeInteger(count) || count < 0) throw new Error("velocity count is not a non-negative integer");
  return { amount: new Big(row.amount).toFixed(), count, usd: new Big(row.usd).toFixed() };
}
