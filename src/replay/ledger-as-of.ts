/**
 * Window totals as they were at a past decision, from the charge ledger (velocity_charges): the
 * approved charges of the group in (decidedAt − duration, decidedAt], other than the decision's
 * own, counting charges voided only later. For windows a candidate bundle adds, which the
 * recorded facts lack. The live read (src/velocity/read.ts) uses buckets and has no upper edge;
 * a past instant needs both edges and the void times, so this sums the charges themselves.
 *
 * The ledger only holds charges for the groups the bundle in force had windows for. `coverage`
 * finds, per set of groupBy dimensions, the last allowed decision that was NOT charged under such
 * a group: a window reaching back past it would read too little, so that decision is reported as
 * not replayable instead.
 */
import { sql } from "kysely";
import type { Db } from "../database.js";
import type { GroupDimension, PolicyBundle } from "../core/policy/types.js";
import { groupHashHex } from "../velocity/group-hash.js";

export interface AsOfQuery {
  key: string;
  durationSeconds: number;
  at: Date;
  decisionId: string;
}

export interface Total {
  amount: string;
  count: number;
  /** The dollars each charge recorded at its decision's price. */
  usd: string;
}

export function dimensionSet(groupBy: readonly GroupDimension[]): string {
  return [...groupBy].sort().join(",");
}

/** One statement for a page's queries; answers in query order. */
export async function totalsAsOf(db: Db, queries: readonly AsOfQuery[]): Promise<Total[]> {
  if (queries.length === 0) return [];
  const { rows } = await sql<{ ord: number; amount: string; count: string; usd: string }>`
    select q.ord, coalesce(sum(c.amount), 0)::text as amount, count(c.charged_at)::text as count, coalesce(sum(c.usd), 0)::text as usd
    from unnest(
      ${queries.map((_, i) => i)}::int4[], ${queries.map((q) => groupHashHex(q.key))}::text[],
      ${queries.map((q) => new Date(q.at.getTime() - q.durationSeconds * 1000).toISOString())}::timestamptz[],
      ${queries.map((q) => q.at.toISOString())}::timestamptz[], ${queries.map((q) => q.decisionId)}::uuid[]
    ) as q(ord, hash, after_at, at, decision_id)
    left join lateral (
      select c.amount, c.usd, c.charged_at from velocity_charges c
      where c.group_hash = decode(q.hash, 'hex') and c.charged_at > q.after_at and c.charged_at <= q.at
        and c.decision_id <> q.decision_id and (c.voided_at is null or c.voided_at > q.at)
    ) c on true
    group by q.ord`.execute(db);
  const totals: Total[] = queries.map(() => ({ amount: "0", count: 0, usd: "0" }));
  for (const r of rows) totals[r.ord] = { amount: r.amount, count: Number(r.count), usd: r.usd };
  return totals;
}

/**
 * Per dimension set: the time of the last allowed (charged) decision whose bundle had no window
 * with exactly those dimensions — null when every allowed decision up to `until` had one.
 */
export async function chargeGaps(db: Db, sets: readonly string[], until: Date): Promise<Map<string, Date | null>> {
  const gaps = new Map<string, Date | null>();
  for (const set of sets) {
    const { rows } = await sql<{ last: Date | null }>`
      select max(d.decided_at) as last from decisions d
      where d.decision = 'allow' and not d.replayed and d.replay_of is null and d.decided_at <= ${until}
        and jsonb_typeof(d.facts -> 0 -> 'transfer') = 'object'
        and not exists (
          select 1 from jsonb_array_elements(coalesce(d.velocity_windows, '[]'::jsonb)) w
          where (select string_agg(x, ',' order by x collate "C") from jsonb_array_elements_text(w -> 'groupBy') x) = ${set}
        )`.execute(db);
    const last = rows[0]?.last ?? null;
    gaps.set(set, last === null ? null : new Date(last));
  }
  return gaps;
}

/**
 * The time of the last charge recorded without dollars (its decision looked no price up: its bundle
 * read none), or null. A `usd` window reaching back past it would read too few dollars, so the
 * candidate's dollar windows are replayable only after it (DOLLARS_GAP in the coverage).
 */
export async function dollarGap(db: Db, until: Date): Promise<Date | null> {
  const { rows } = await sql<{ last: Date | null }>`
    select max(c.charged_at) as last from velocity_charges c where c.usd is null and c.charged_at <= ${until}`.execute(db);
  const last = rows[0]?.last ?? null;
  return last === null ? null : new Date(last);
}

/** The coverage key of dollarGap. */
export const DOLLARS_GAP = "usd";

/** A window of the candidate whose groups would read less than was spent, if it took effect now. */
export interface WindowStartingShort {
  window: string;
  groupBy: string[];
  /** The last transfer allowed that no group of this window was charged with. */
  unchargedUntil: string;
  /** When the window's reach is past it: its groups read all their spending from then on. */
  completeFrom: string;
}

/**
 * The candidate's windows grouped in a way no bundle in force charged within their reach before
 * `now`: a group is its dimensions and their values, and the ledger only charges the groups of the
 * bundle in force, so a window whose groupBy changed (or a new window grouped otherwise than any
 * before it) starts with none of the spending already done. Until `completeFrom` every such group
 * allows its whole limit again. Replay reports the decisions it cannot recompute; this says what
 * the live service would do once the candidate is merged.
 */
export async function windowsStartingShort(db: Db, candidate: PolicyBundle, now: Date): Promise<WindowStartingShort[]> {
  const gaps = await chargeGaps(db, [...new Set(candidate.windows.map((w) => dimensionSet(w.groupBy)))], now);
  return candidate.windows.flatMap((w) => {
    const gap = gaps.get(dimensionSet(w.groupBy)) ?? null;
    if (gap === null || gap.getTime() <= now.getTime() - w.durationSeconds * 1000) return [];
    return [{ window: w.name, groupBy: [...w.groupBy].sort(), unchargedUntil: gap.toISOString(), completeFrom: new Date(gap.getTime() + w.durationSeconds * 1000).toISOString() }];
  });
}
