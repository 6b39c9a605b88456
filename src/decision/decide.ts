/**
 * The decision path of the co-signer webhook:
 *
 *   gather (address book, asset decimals: outside any lock) → refuse a body they contradict (400)
 *   → one database transaction:
 *     lock the transaction name → repeat a final decision, or deny one the platform reported
 *     failed before its first delivery, or
 *     lock the window groups → read totals → evaluate → decision row (+ charges when allowed)
 *   → commit → answer.
 *
 * Totals are read after the locks, inside the transaction that writes the charges, so two
 * deliveries can never both spend the same room in a window. No network call happens while the
 * locks are held. Anything that throws becomes "unavailable" (503), never an answer.
 */
import { randomUUID } from "node:crypto";
import { findFinalDecision, insertDecision, lockTransactionName, type DecisionEvidence, type FinalDecision } from "../audit/decision-rows.js";
import type { Db } from "../db/connect.js";
import { describeError } from "../log.js";
import type { Decision, Outcome, PolicyBundle, RuleMatch } from "../policy/types.js";
import { openReview, reviewGate } from "../review/decision-step.js";
import type { StoredReview } from "../review/store.js";
import { traced } from "../telemetry/tracing.js";
import type { Transaction } from "../transaction/types.js";
import { lockWindowGroups, readWindowTotals, recordCharges } from "../velocity/ledger.js";
import { assess, planVelocity, situationOf, totalsByWindow, type Situation } from "./assess.js";
import { contentDigest } from "./content-digest.js";
import { DEFAULT_DECISION_TIMEOUT_MS, transactionWithin, withinDeadline } from "./deadline.js";
import type { DecisionDeps } from "./deps.js";
import { DEFAULT_MAX_WINDOW_GROUPS, windowGroupCapReason } from "./group-cap.js";
import { reportedFailureReason } from "./reported-failure.js";
import { shadowBundle, shadowOutcome, shadowQueries } from "./shadow.js";
import { verifyClaims } from "./verify-claims.js";
import { NO_ASSET_DECIMALS } from "./deps.js";
import type { AppError } from "../errors.js";

export const CONFLICTING_SNAPSHOT = "conflicting snapshot";

export interface Decided {
  kind: "decided";
  decision: Decision;
  decisionId: string;
  policyVersion: string;
  reasons: string[];
  replayed: boolean;
  replayOf: string | null;
  policyDigest: string;
  matchedRules: RuleMatch[];
  /** Set when the defer came from outside the policy (telemetry tells the causes apart). */
  deferCause?: "address_book_stale" | "asset_decimals_unknown";
}

export interface Unavailable {
  kind: "unavailable";
}

/** The body contradicts facts outside it (src/decision/verify-claims.ts): 400, nothing recorded, like a parse error. */
export interface Refused {
  kind: "refused";
  error: AppError;
}

export type DecisionResult = Decided | Unavailable | Refused;

export function httpStatusFor(decision: Decision): number {
  return decision === "defer" ? 503 : 200;
}

export async function decide(deps: DecisionDeps, tx: Transaction, requestId: string, startedAt = performance.now()): Promise<DecisionResult> {
  const opened: StoredReview[] = [];
  try {
    const result = await withinDeadline(deps.decisionTimeoutMs ?? DEFAULT_DECISION_TIMEOUT_MS, startedAt, async (deadline) => {
      const bundle = deps.policy.current();
      const now = deps.clock();
      const addressBook = await traced("countersign.facts.address_book", () => deps.addressBook.viewFor(tx.vault));
      const claims = await verifyClaims(tx, addressBook, deps.assetDecimals ?? NO_ASSET_DECIMALS);
      if (claims.kind === "refused") return { kind: "refused", error: claims.error } satisfies Refused;
      const situation = situationOf(tx, now, addressBook);
      const stale = deps.addressBook.staleReason(addressBook, now);
      const maxWindowGroups = deps.maxWindowGroups ?? DEFAULT_MAX_WINDOW_GROUPS;
      const record: Recording = { bundle, situation, requestId, startedAt, digest: contentDigest(tx), maxWindowGroups, shadow: shadowBundle(deps.shadow), review: null, opened };
      return transactionWithin(deps.db, deadline, async (trx) => {
        await lockTransactionName(trx, tx.name);
        const final = await findFinalDecision(trx, tx.name);
        if (final) return repeat(trx, record, final);
        const gate = await reviewGate(trx, bundle, tx, record.digest, now);
        if (gate.kind !== "evaluate") return outright(trx, record, "deny", gate.kind === "conflict" ? CONFLICTING_SNAPSHOT : gate.reason);
        const ended = await reportedFailureReason(trx, tx.name);
        if (ended !== null) return outright(trx, record, "deny", ended);
        if (stale !== null) return outright(trx, record, "defer", stale, "address_book_stale");
        if (claims.kind === "unknown") return outright(trx, record, "defer", claims.reason, "asset_decimals_unknown");
        return evaluateAndRecord(trx, { ...record, situation: { ...situation, review: gate.facts }, review: gate.review });
      });
    });
    if (result.done) {
      for (const review of opened) deps.reviews?.opened(review); // committed; never awaited
      return result.value;
    }
    deps.logger.warn({ requestId, transaction: tx.name, timeoutMs: result.budgetMs }, "decision deadline passed; deferring, its transaction is rolled back");
    return { kind: "unavailable" };
  } catch (error) {
    deps.logger.error({ requestId, transaction: tx.name, ...describeError(error) }, "decision unavailable; deferring");
    return { kind: "unavailable" };
  }
}

interface Recording {
  bundle: PolicyBundle;
  situation: Situation;
  requestId: string;
  startedAt: number;
  digest: string;
  maxWindowGroups: number;
  shadow: PolicyBundle | null;
  /** The transaction's review of this content, if one is open (src/review). */
  review: StoredReview | null;
  /** Reviews this delivery opened: announced once committed. */
  opened: StoredReview[];
}

async function evaluateAndRecord(trx: Db, r: Recording): Promise<Decided> {
  const plan = planVelocity(r.bundle, r.situation);
  const tooMany = windowGroupCapReason(plan.keys.length, r.maxWindowGroups);
  if (tooMany !== null) return outright(trx, r, "deny", tooMany);
  const queries = [...plan.queries, ...shadowQueries(r.shadow, r.situation)];
  const read = await traced("countersign.facts.velocity", async () => {
    await lockWindowGroups(trx, plan.keys);
    return queries.length > 0 ? await readWindowTotals(trx, queries, r.situation.now) : new Map();
  });
  const outcome = await traced("countersign.evaluate", () => assess(r.bundle, r.situation, totalsByWindow(plan.queries, read), { trace: true }));
  const evidence: DecisionEvidence = { trace: outcome.evaluations, velocityWindows: r.bundle.windows, shadow: shadowOutcome(r.shadow, r.situation, read) };
  const decided = await writeRow(trx, r, { ...evaluated(r, outcome), evidence });
  if (outcome.decision === "defer" && r.review === null) {
    const tx = r.situation.tx;
    const opened = await openReview(trx, { bundle: r.bundle, tx, digest: r.digest, now: r.situation.now, outcome, decisionId: decided.decisionId });
    if (opened) r.opened.push(opened);
  }
  if (outcome.decision === "allow" && plan.charges.length > 0) {
    await recordCharges(
      trx,
      plan.charges.map((c) => ({
        decisionId: decided.decisionId,
        transactionName: r.situation.tx.name,
        vault: r.situation.tx.vault,
        transferIndex: c.transferIndex,
        key: c.key,
        amount: c.amount,
        chargedAt: r.situation.now,
      })),
    );
  }
  return decided;
}

/** What one delivery's row says, beyond what every row of the delivery carries. */
interface Verdict {
  decision: Decision;
  reasons: string[];
  matched: Outcome["matched"];
  facts: Outcome["facts"];
  replayed: boolean;
  replayOf: string | null;
  policyVersion: string;
  policyDigest: string;
  evidence?: DecisionEvidence;
  deferCause?: Decided["deferCause"];
}

async function writeRow(trx: Db, r: Recording, v: Verdict): Promise<Decided> {
  const decisionId = randomUUID();
  await traced("countersign.audit.write", () => insertDecision(trx, {
    id: decisionId,
    decidedAt: r.situation.now,
    transactionName: r.situation.tx.name,
    vault: r.situation.tx.vault,
    decision: v.decision,
    httpStatus: httpStatusFor(v.decision),
    replayed: v.replayed,
    replayOf: v.replayOf,
    policyVersion: v.policyVersion,
    policyDigest: v.policyDigest,
    matchedRules: v.matched,
    reasons: v.reasons,
    facts: v.facts,
    transaction: r.situation.tx.snapshot,
    contentDigest: r.digest,
    requestId: r.requestId,
    durationMs: performance.now() - r.startedAt,
    ...(v.evidence ? { evidence: v.evidence } : {}),
  }));
  const { decision, reasons, replayed, replayOf, policyVersion, policyDigest, matched: matchedRules } = v;
  const cause = v.deferCause ? { deferCause: v.deferCause } : {};
  return { kind: "decided", decision, decisionId, policyVersion, reasons, replayed, replayOf, policyDigest, matchedRules, ...cause };
}

/** A fresh evaluation by the bundle in force. */
function evaluated(r: Recording, outcome: Pick<Outcome, "decision" | "reasons" | "matched" | "facts">): Verdict {
  const { decision, reasons, matched, facts } = outcome;
  return { decision, reasons, matched, facts, replayed: false, replayOf: null, policyVersion: r.bundle.version, policyDigest: r.bundle.digest };
}

/** A later delivery of a decided name: the same answer, or a denial when its content changed. */
async function repeat(trx: Db, r: Recording, final: FinalDecision): Promise<Decided> {
  if (final.contentDigest !== r.digest) {
    const conflict = evaluated(r, { decision: "deny", reasons: [CONFLICTING_SNAPSHOT], matched: [], facts: [] });
    return writeRow(trx, r, { ...conflict, replayOf: final.id });
  }
  return writeRow(trx, r, {
    decision: final.decision,
    reasons: final.reasons,
    matched: final.matchedRules,
    facts: [],
    replayed: true,
    replayOf: final.id,
    policyVersion: final.policyVersion,
    policyDigest: final.policyDigest,
  });
}

/** A decision made without evaluating the policy: a stale copy, a reported failure, the group cap, a closed review. */
async function outright(trx: Db, r: Recording, decision: Decision, reason: string, deferCause?: Decided["deferCause"]): Promise<Decided> {
  const verdict = evaluated(r, { decision, reasons: [reason], matched: [], facts: [] });
  return writeRow(trx, r, deferCause ? { ...verdict, deferCause } : verdict);
}
