/**
 * A recorded decision as an operator reads it: its audit row, with the snapshot, the facts, the
 * trace and what a shadow candidate said. One reading for `GET /v1/decisions` and `explain
 * --decision`, whichever of the two reaches the database.
 */
import type { Selectable } from "kysely";
import type { Db } from "../database.js";
import type { DecisionsTable } from "./tables.js";
import type { Decision, RuleMatch } from "../core/policy/types.js";
import type { DecisionRow } from "./decision-rows.js";
import type { PriceQuote } from "../core/facts/usd-price.js";
export const DECISION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The decisions of one transaction answered at most, oldest first: a co-signer polls a deferred one for as long as it waits. */
export const TRANSACTION_DECISIONS_LIMIT = 500;

export interface ShadowView {
  policyVersion: string;
  policyDigest: string;
  /** Null when the candidate failed on these facts (see error). */
  decision: Decision | null;
  matchedRules: RuleMatch[];
  error: string | null;
}

/** The row as written (decision-rows.ts), its time as ISO text, with what only a reader is shown. */
export interface DecisionView extends Omit<DecisionRow, "decidedAt" | "facts" | "evidence"> {
  decidedAt: string;
  signTransaction: boolean | null;
  facts: unknown[];
  /** Null on rows recorded before traces were kept. */
  trace: unknown[] | null;
  shadow: ShadowView | null;
  /** The USD prices the evaluation used, as recorded with it; [] when it used none. */
  prices: PriceQuote[];
}

type Row = Omit<Selectable<DecisionsTable>, "seq" | "velocity_windows">;

const COLUMNS = [
  "id",
  "decided_at",
  "transaction_name",
  "vault",
  "decision",
  "sign_transaction",
  "http_status",
  "replayed",
  "replay_of",
  "policy_version",
  "policy_digest",
  "matched_rules",
  "reasons",
  "facts",
  "transaction",
  "content_digest",
  "request_id",
  "duration_ms",
  "trace",
  "shadow_policy_version",
  "shadow_policy_digest",
  "shadow_decision",
  "shadow_matched_rules",
  "shadow_error",
  "prices",
] as const;

/** The decision of this id, or null when there is none (an id that is no UUID names none). */
export async function readDecision(db: Db, id: string): Promise<DecisionView | null> {
  if (!DECISION_ID.test(id)) return null;
  const row = await db.selectFrom("decisions").select(COLUMNS).where("id", "=", id).executeTakeFirst();
  return row ? viewOf(row) : null;
}

/** Every decision recorded for the transaction, in the order they were written. */
export async function decisionsOfTransaction(db: Db, transactionName: string): Promise<DecisionView[]> {
  const rows = await db.selectFrom("decisions").select(COLUMNS).where("transaction_name", "=", transactionName).orderBy("seq").limit(TRANSACTION_DECISIONS_LIMIT).execute();
  return rows.map(viewOf);
}

function viewOf(row: Row): DecisionView {
  return {
    id: row.id,
    decidedAt: new Date(row.decided_at).toISOString(),
    transactionName: row.transaction_name,
    vault: row.vault,
    decision: row.decision,
    signTransaction: row.sign_transaction,
    httpStatus: row.http_status,
    replayed: row.replayed,
    replayOf: row.replay_of,
    policyVersion: row.policy_version,
    policyDigest: row.policy_digest,
    matchedRules: row.matched_rules as RuleMatch[],
    reasons: row.reasons as string[],
    facts: (row.facts as unknown[] | null) ?? [],
    transaction: row.transaction,
    contentDigest: row.content_digest,
    requestId: row.request_id,
    durationMs: row.duration_ms,
    trace: (row.trace as unknown[] | null) ?? null,
    shadow: shadowOf(row),
    prices: (row.prices as PriceQuote[] | null) ?? [],
  };
}

function shadowOf(row: Row): ShadowView | null {
  if (row.shadow_policy_digest === null) return null;
  return {
    policyVersion: row.shadow_policy_version ?? "(unknown)",
    policyDigest: row.shadow_policy_digest,
    decision: row.shadow_decision,
    matchedRules: (row.shadow_matched_rules as RuleMatch[] | null) ?? [],
    error: row.shadow_error,
  };
}
