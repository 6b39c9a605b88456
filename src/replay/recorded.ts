/**
 * Recorded decisions for replay, streamed page by page with a keyset cursor on (decided_at, seq):
 * memory stays bounded by one page whatever the number of rows, and each page is one indexed
 * range read (decisions_by_time). Only first decisions count: repeats (`replayed`) and conflicting
 * deliveries (`replay_of`) were never evaluated.
 */
import { sql } from "kysely";
import type { Db } from "../database.js";
import type { Facts } from "../core/facts/types.js";
import type { Decision, RuleMatch, WindowSpec } from "../core/policy/types.js";

export interface RecordedDecision {
  id: string;
  seq: string;
  decidedAt: Date;
  transactionName: string;
  vault: string;
  decision: Decision;
  policyVersion: string;
  matchedRules: RuleMatch[];
  reasons: string[];
  facts: Facts[];
  /** The window definitions its facts' totals were computed with; null on a decision made without evaluating the policy. */
  velocityWindows: WindowSpec[] | null;
}

export interface ReplayRange {
  from: Date;
  to: Date;
  /** `vaults/{v}`, or every vault. */
  vault?: string | undefined;
}

export const PAGE_SIZE = 1000;

export async function* recordedDecisions(db: Db, range: ReplayRange, pageSize = PAGE_SIZE): AsyncGenerator<RecordedDecision[]> {
  let after: { at: Date; seq: string } | null = null;
  for (;;) {
    let query = db
      .selectFrom("decisions")
      .select(["id", "seq", "decided_at", "transaction_name", "vault", "decision", "policy_version", "matched_rules", "reasons", "facts", "velocity_windows"])
      .where("replayed", "=", false)
      .where("replay_of", "is", null)
      .where("decided_at", ">=", range.from)
      .where("decided_at", "<", range.to);
    if (range.vault !== undefined) query = query.where("vault", "=", range.vault);
    if (after !== null) {
      const { at, seq } = after;
      query = query.where(sql<boolean>`(decided_at, seq) > (${at}, ${seq}::bigint)`);
    }
    const rows = await query.orderBy("decided_at").orderBy("seq").limit(pageSize).execute();
    if (rows.length === 0) return;
    yield rows.map((r) => ({
      id: r.id,
      seq: String(r.seq),
      decidedAt: new Date(r.decided_at),
      transactionName: r.transaction_name,
      vault: r.vault,
      decision: r.decision,
      policyVersion: r.policy_version,
      matchedRules: r.matched_rules as RuleMatch[],
      reasons: r.reasons as string[],
      facts: (r.facts ?? []) as Facts[],
      velocityWindows: (r.velocity_windows ?? null) as WindowSpec[] | null,
    }));
    if (rows.length < pageSize) return;
    const last = rows[rows.length - 1]!;
    after = { at: new Date(last.decided_at), seq: String(last.seq) };
  }
}
