/**
 * Reading and writing rows of the append-only `decisions` table. Functions take the caller's
 * transaction, so the caller owns the boundary ("no 200 without a committed row").
 */
import { sql } from "kysely";
import type { Db } from "../database.js";
import { isoDate } from "../core/iso-time.js";
import type { Decision, RuleMatch } from "../core/policy/types.js";
import type { PriceQuote } from "../core/facts/usd-price.js";
export interface DecisionRow {
  id: string;
  decidedAt: Date;
  transactionName: string;
  vault: string;
  decision: Decision;
  httpStatus: number;
  replayed: boolean;
  replayOf: string | null;
  policyVersion: string;
  policyDigest: string;
  matchedRules: RuleMatch[];
  reasons: string[];
  facts: unknown;
  transaction: unknown;
  contentDigest: string;
  requestId: string;
  durationMs: number;
  /** Present on fresh evaluations by the policy; a repeat, a conflict or an outright decision has none. */
  evidence?: DecisionEvidence;
}

/** What the candidate bundle of COUNTERSIGN_SHADOW_POLICIES said on the same facts. */
export interface ShadowRecord {
  policyVersion: string;
  policyDigest: string;
  /** Null when the shadow evaluation failed (see error). */
  decision: Decision | null;
  matchedRules: RuleMatch[] | null;
  error: string | null;
}

export interface DecisionEvidence {
  trace?: unknown;
  velocityWindows?: unknown;
  shadow?: ShadowRecord;
  /** Every USD price the evaluation used (src/assets/usd-price.ts), so replay and an auditor see the dollars it saw. */
  prices?: readonly PriceQuote[];
}

function json(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value);
}

function evidenceColumns(e: DecisionEvidence | undefined) {
  return {
    trace: e?.trace ?? null,
    velocity_windows: e?.velocityWindows ?? null,
    shadow_policy_version: e?.shadow?.policyVersion ?? null,
    shadow_policy_digest: e?.shadow?.policyDigest ?? null,
    shadow_decision: e?.shadow?.decision ?? null,
    shadow_matched_rules: e?.shadow?.matchedRules ?? null,
    shadow_error: e?.shadow?.error ?? null,
    prices: e?.prices && e.prices.length > 0 ? e.prices : null,
  };
}

/** The row's columns, jsonb ones as JSON values and the time as ISO 8601 text (what countersign_decision_write takes). */
export function decisionRecord(row: DecisionRow) {
  return {
    id: row.id,
    decided_at: isoDate(row.decidedAt),
    transaction_name: row.transactionName,
    vault: row.vault,
    decision: row.decision,
    sign_transaction: signTransactionFor(row.decision),
    http_status: row.httpStatus,
    replayed: row.replayed,
    replay_of: row.replayOf,
    policy_version: row.policyVersion,
    policy_digest: row.policyDigest,
    matched_rules: row.matchedRules,
    reasons: row.reasons,
    facts: row.facts,
    transaction: row.transaction,
    content_digest: row.contentDigest,
    request_id: row.requestId,
    duration_ms: row.durationMs,
    ...evidenceColumns(row.evidence),
  };
}

export function signTransactionFor(decision: Decision): boolean | null {
  return decision === "defer" ? null : decision === "allow";
}

export async function insertDecision(trx: Db, row: DecisionRow): Promise<void> {
  const r = decisionRecord(row);
  await trx
    .insertInto("decisions")
    .values({
      ...r,
      matched_rules: JSON.stringify(r.matched_rules),
      reasons: JSON.stringify(r.reasons),
      facts: JSON.stringify(r.facts),
      transaction: JSON.stringify(r.transaction),
      trace: json(r.trace),
      velocity_windows: json(r.velocity_windows),
      shadow_matched_rules: json(r.shadow_matched_rules),
      prices: json(r.prices),
    })
    .execute();
}

export interface FinalDecision {
  id: string;
  decision: "allow" | "deny";
  policyVersion: string;
  policyDigest: string;
  matchedRules: RuleMatch[];
  reasons: string[];
  contentDigest: string;
  /** Some of its charges were voided since (the decision read says; absent where not read). */
  voided?: boolean;
}

/** A name decided before whose row went with an archived month: only its id is left. */
export interface ArchivedFinalDecision {
  id: string;
  archived: true;
}

/**
 * The first allow or deny recorded for the name, the one every later delivery repeats: found
 * through `final_decisions` (written by the trigger function `final_decisions_record`,
 * migrations/sql/functions/decisions.sql), as the decision read does.
 */
export async function findFinalDecision(trx: Db, transactionName: string): Promise<FinalDecision | ArchivedFinalDecision | undefined> {
  // One statement, joined in the database: the time compared is Postgres's own (microseconds), not
  // a JavaScript Date's (milliseconds), which took a row stamped in microseconds for archived.
  const found = await sql<{ final_id: string } & { [K in keyof FinalRow]: FinalRow[K] | null }>`
    select f.decision_id as final_id, d.id, d.decision, d.policy_version, d.policy_digest, d.matched_rules, d.reasons, d.content_digest
    from final_decisions f
    left join decisions d on d.id = f.decision_id and d.decided_at = f.decided_at and d.transaction_name = f.transaction_name
    where f.transaction_name = ${transactionName}`.execute(trx);
  const final = found.rows[0];
  if (!final) return undefined;
  const { final_id, ...row } = final;
  return row.id === null ? { id: final_id, archived: true } : toFinalDecision(row as FinalRow);
}

type FinalRow = { id: string; decision: string; policy_version: string; policy_digest: string; matched_rules: unknown; reasons: unknown; content_digest: string; voided?: boolean };

/** A `decisions` row's columns (as selected above) as the final decision a repeat answers with; the read's archived mark as such. */
export function toFinalDecision(row: FinalRow): FinalDecision;
export function toFinalDecision(row: FinalRow | { id: string; archived: true }): FinalDecision | ArchivedFinalDecision;
export function toFinalDecision(row: FinalRow | { id: string; archived: true }): FinalDecision | ArchivedFinalDecision {
  if ("archived" in row) return { id: row.id, archived: true };
  return {
    id: row.id,
    decision: row.decision as "allow" | "deny",
    policyVersion: row.policy_version,
    policyDigest: row.policy_digest,
    matchedRules: row.matched_rules as RuleMatch[],
    reasons: row.reasons as string[],
    contentDigest: row.content_digest,
    ...(row.voided === undefined ? {} : { voided: row.voided }),
  };
}

/**
 * Serialises every delivery of one transaction name for the rest of the database transaction,
 * across all service processes sharing the database.
 */
export async function lockTransactionName(trx: Db, transactionName: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${"decision:" + transactionName}, 0))`.execute(trx);
}
