/**
 * The decision path of the co-signer webhook:
 *
 *   the platform check (src/deliveries/: the platform's copy, read outside any lock, is what is
 *   decided on; a delivery that is not what the platform holds is refused with 409)
 *   → gather (address book, asset decimals, USD prices: outside any lock)
 *   → one database transaction in two round trips (session.ts):
 *     1. lock the transaction name; read its final decision, or its review, a reported failure,
 *        and (when it can be evaluated) lock the window groups and read their totals;
 *     → repeat the final decision, or refuse (400, nothing written) a body the gathered facts
 *       contradict, or deny a closed review or a reported failure, or defer on a stale copy or
 *       unknown decimals, or evaluate;
 *     2. write the decision row (+ charges when allowed, + a review a defer opens) and commit,
 *        the server checking the deadline in between → answer.
 *
 * Totals are read after the locks, inside the transaction that writes the charges, so two
 * deliveries can never both spend the same room in a window. Between the read and the write only
 * the evaluation runs: no network call and no other query while the locks are held. Anything that
 * throws becomes "unavailable" (503), never an answer.
 */
import { randomUUID } from "node:crypto";
import { toFinalDecision, type ArchivedFinalDecision, type DecisionEvidence, type DecisionRow, type FinalDecision } from "../audit/decision-rows.js";
import type { AppError } from "../core/errors.js";
import { describeError } from "../log.js";
import type { Decision, Outcome, PolicyBundle, RuleMatch } from "../core/policy/types.js";
import { expiredWhileDeferred, REVIEW_EXPIRED, reviewGate, reviewOpening } from "../review/decision-step.js";
import { toAction, toReview, type ActionRow, type ReviewAction, type ReviewRow, type StoredReview } from "../review/store.js";
import { traced } from "../telemetry/tracing.js";
import type { Transaction } from "../core/transaction/types.js";
import type { WindowQuery, WindowTotal } from "../velocity/ledger.js";
import { assess, planVelocity, situationOf, totalsByWindow, type PlannedCharge, type Situation, type VelocityPlan } from "../core/assess.js";
import { contentDigest } from "../core/transaction/content-digest.js";
import { DEFAULT_DECISION_TIMEOUT_MS, withinDeadline, type Deadline } from "./deadline.js";
import { checkHorizon } from "../deliveries/check.js";
import { NO_ASSET_DECIMALS, type DecisionDeps, type UnavailableCause, NO_ASSET_PRICES } from "./deps.js";
import { gatherPrices } from "./prices.js";
import { NO_PRICING, priceHold } from "../core/facts/pricing.js";
import type { PriceQuote } from "../core/facts/usd-price.js";
import { DEFAULT_MAX_WINDOW_GROUPS, windowGroupCapReason } from "./group-cap.js";
import { lockBudgetOf, lockBudgetReason } from "../db/lock-budget.js";
import { reportedFailure } from "./reported-failure.js";
import { withDecisionSession } from "./session.js";
import type { DecisionSession, ReadResult } from "./session-types.js";
import { readArgs, totalsRead, writeArgs } from "./session-args.js";
import { shadowBundle, shadowOutcome, shadowQueries, shadowReadsDollars, shadowVerdict, type ShadowVerdict } from "./shadow.js";
import { readsDollars } from "../core/policy/reads-dollars.js";
import { opaqueAssetHold } from "./opaque-asset.js";
import { unknownNetworkHold } from "./unknown-network.js";
import { unknownSourceHold, type UnknownSource } from "./unknown-source.js";
import { verifyClaims, type ClaimCheck } from "./verify-claims.js";

export const CONFLICTING_SNAPSHOT = "conflicting snapshot";
export const ALLOWED_THEN_VOIDED =
  "this transaction was allowed, then its velocity charges were voided (the platform reported it failed, or an operator voided them): it is not signed again";

/** A delivery of a name whose final decision went with an archived month (its id follows). */
export const DECIDED_THEN_ARCHIVED = "this transaction was decided before, in a month archived since: it is not decided again; its decision was";

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
  deferCause?: "address_book_stale" | "asset_decimals_unknown" | "source_wallet_unknown" | "lock_budget" | "price_unknown";
  /** What the shadow candidate said, when it was evaluated beside this fresh decision. */
  shadow?: ShadowVerdict;
}

export interface Unavailable {
  kind: "unavailable";
  /** Set when this process stands down (DecisionDeps.standDown), or the platform check could not be made. */
  cause?: UnavailableCause;
}

/**
 * The body contradicts facts outside it (src/decision/verify-claims.ts): 400, nothing recorded, like
 * a parse error; or it is not what the platform holds (src/deliveries/check.ts): 409, the refusal recorded.
 */
export interface Refused {
  kind: "refused";
  error: AppError;
}

export type DecisionResult = Decided | Unavailable | Refused;

export function httpStatusFor(decision: Decision): number {
  return decision === "defer" ? 503 : 200;
}

export async function decide(deps: DecisionDeps, tx: Transaction, requestId: string, startedAt = performance.now()): Promise<DecisionResult> {
  // Windows read and charges stamped by a clock out of step would count the wrong span; a bundle
  // replaced elsewhere would sign what the newer one defers or denies.
  const standDown = deps.standDown?.();
  if (standDown) return { kind: "unavailable", cause: standDown };
  const opened: OpenedReview[] = [];
  try {
    const result = await withinDeadline(deps.decisionTimeoutMs ?? DEFAULT_DECISION_TIMEOUT_MS, startedAt, async (deadline): Promise<DecisionResult> => {
      // Before any lock: with the platform check on, only the platform's copy is decided on.
      // One digest for both: a confirmed platform copy has the delivery's digest by definition.
      const digest = contentDigest(tx);
      const checked = deps.deliveries ? await deps.deliveries.check(tx, digest, requestId, checkHorizon(deadline)) : null;
      if (checked !== null && checked.kind !== "confirmed") return checked;
      return decideOn(deps, checked?.tx ?? tx, digest, requestId, startedAt, deadline, opened);
    });
    if (result.done) {
      for (const { review, bundle } of opened) deps.reviews?.opened(review, bundle); // committed; never awaited
      return result.value;
    }
    deps.logger.warn({ requestId, transaction: tx.name, timeoutMs: result.budgetMs }, "decision deadline passed; deferring, its transaction is rolled back");
    return { kind: "unavailable" };
  } catch (error) {
    deps.logger.error({ requestId, transaction: tx.name, ...describeError(error) }, "decision unavailable; deferring");
    return { kind: "unavailable" };
  }
}

/** The decision on `tx` (the platform's copy when the check is on), within `deadline`. */
async function decideOn(
  deps: DecisionDeps,
  tx: Transaction,
  digest: string,
  requestId: string,
  startedAt: number,
  deadline: Deadline,
  opened: OpenedReview[],
): Promise<DecisionResult> {
  const bundle = deps.policy.current();
  const now = deps.clock();
  const addressBook = await traced("countersign.facts.address_book", () => deps.addressBook.viewFor(tx.vault));
  const claims = await verifyClaims(tx, addressBook, deps.assetDecimals ?? NO_ASSET_DECIMALS);
  const shadow = shadowBundle(deps.shadow);
  const unpriced = situationOf(tx, now, addressBook);
  const pricing =
    readsDollars(bundle) || shadowReadsDollars(shadow)
      ? await traced("countersign.facts.prices", () => gatherPrices(deps.assetPrices ?? NO_ASSET_PRICES, tx, unpriced.transfers))
      : NO_PRICING;
  const situation = pricing.quotes.length > 0 ? situationOf(tx, now, addressBook, pricing.book) : unpriced;
  const plan = planVelocity(bundle, situation);
  const maxGroups = deps.maxWindowGroups ?? DEFAULT_MAX_WINDOW_GROUPS;
  const queries = [...plan.queries, ...shadowQueries(shadow, situation, maxGroups)];
  // Known before any lock: why this delivery cannot be evaluated, if it cannot.
  const stale = deps.addressBook.staleReason(addressBook, now);
  const tooMany = windowGroupCapReason(plan.keys.length, maxGroups);
  // Its name's lock and one per group, held until it commits (src/db/lock-budget.ts).
  const overBudget = lockBudgetReason(plan.keys.length + 1, lockBudgetOf(deps.db));
  const unknownSource =
    unknownSourceHold(bundle.windows, situation.transfers, addressBook, tx) ??
    opaqueAssetHold(bundle.windows, situation.transfers) ??
    unknownNetworkHold(bundle.windows, situation.transfers);
  const unpricedHold = priceHold(bundle, pricing, situation.transfers);
  const held = stale !== null || claims.kind !== "confirmed" || tooMany !== null || overBudget !== null || unknownSource !== null || unpricedHold !== null;
  const record: Recording = {
    bundle,
    situation,
    plan,
    queries,
    requestId,
    startedAt,
    digest,
    shadow,
    maxGroups,
    review: null,
    opened,
    clock: deps.clock,
    quotes: pricing.quotes,
  };
  return withDecisionSession(deps.db, deadline, async (session) => {
    const read = await traced("countersign.facts.velocity", () => session.read(readArgs(tx.name, plan.keys, queries, now, !held)));
    // A decided name is answered as decided, whatever the copy learned since; otherwise a body
    // the facts contradict is refused (400) and nothing is written.
    if (claims.kind === "refused" && !read.final) return { kind: "refused", error: claims.error } satisfies Refused;
    const step = await nextStep(record, read, { claims, stale, tooMany, overBudget, unknownSource, unpriced: unpricedHold });
    return write(session, record, step);
  });
}

interface Recording {
  bundle: PolicyBundle;
  situation: Situation;
  plan: VelocityPlan;
  /** The live plan's window queries, then the shadow's. */
  queries: WindowQuery[];
  requestId: string;
  startedAt: number;
  digest: string;
  shadow: PolicyBundle | null;
  /** COUNTERSIGN_MAX_WINDOW_GROUPS, which binds the shadow's reads too. */
  maxGroups: number;
  /** The transaction's review of this content, if one is open (src/review). */
  review: StoredReview | null;
  /** Reviews this delivery opened: announced once committed. */
  opened: OpenedReview[];
  /** The service's clock, read again when the row is written (writtenAt). */
  clock: () => Date;
  /** The USD prices the facts were built with, recorded with an evaluated decision. */
  quotes: PriceQuote[];
}

/** A review a delivery opened, with the bundle it was decided under (whose groups say what it needs). */
interface OpenedReview {
  review: StoredReview;
  bundle: PolicyBundle;
}

/** What one delivery writes: its row's verdict and what comes with it. */
interface Step {
  verdict: Verdict;
  charges?: PlannedCharge[];
  /** Review actions to record (an expiry noticed now). */
  actions?: ReviewAction[];
  /** Evaluation outcome, when a deferring one may open a review. */
  outcome?: Outcome;
}

/** Why a delivery cannot be evaluated, found before the transaction. */
interface Held {
  claims: ClaimCheck;
  /** The address-book copy is too old to judge by. */
  stale: string | null;
  /** The transaction touches more window groups than COUNTERSIGN_MAX_WINDOW_GROUPS. */
  tooMany: string | null;
  /** Its locks exceed what the process's transactions may hold at once, all together (src/db/lock-budget.ts). */
  overBudget: string | null;
  /** A source given as a raw address whose wallet is not known, under a window grouped by source wallet. */
  unknownSource: UnknownSource | null;
  /** Prices the live bundle needs and cannot have (src/decision/prices.ts). */
  unpriced: string | null;
}

/** From what the read found (under the name's lock), in the order docs/interface.md gives. */
async function nextStep(r: Recording, read: ReadResult, { claims, stale, tooMany, overBudget, unknownSource, unpriced }: Held): Promise<Step> {
  if (read.final) return repeat(r, toFinalDecision(read.final as Parameters<typeof toFinalDecision>[0]));
  const { tx, now } = r.situation;
  const review = read.review ? toReview(read.review as ReviewRow) : undefined;
  const gate = reviewGate(
    review,
    (read.actions ?? []).map((a) => toAction(a as unknown as ActionRow)),
    r.bundle,
    tx,
    r.digest,
    now,
  );
  if (gate.kind === "conflict") return outright(r, "deny", CONFLICTING_SNAPSHOT);
  if (gate.kind === "deny") return { ...outright(r, "deny", gate.reason), ...(gate.expiry ? { actions: [gate.expiry] } : {}) };
  if (read.failure) return outright(r, "deny", reportedFailure(read.failure.id, read.failure.new_state));
  if (stale !== null) return outright(r, "defer", stale, "address_book_stale");
  if (claims.kind === "unknown") return outright(r, "defer", claims.reason, "asset_decimals_unknown");
  if (tooMany !== null) return outright(r, "deny", tooMany);
  if (overBudget !== null) return outright(r, "defer", overBudget, "lock_budget");
  if (unknownSource?.decision === "defer") return outright(r, "defer", unknownSource.reason, "source_wallet_unknown");
  if (unknownSource) return outright(r, "deny", unknownSource.reason);
  if (unpriced !== null) return outright(r, "defer", unpriced, "price_unknown");
  r.review = gate.review;
  return evaluateStep({ ...r, situation: { ...r.situation, review: gate.facts } }, totalsRead(read, r.queries));
}

async function evaluateStep(r: Recording, read: Map<string, WindowTotal>): Promise<Step> {
  const outcome = await traced("countersign.evaluate", () => assess(r.bundle, r.situation, totalsByWindow(r.plan.queries, read), { trace: true }));
  const expiry = expiredWhileDeferred(r.review, r.bundle, outcome, r.situation.now);
  if (expiry) return { ...outright(r, "deny", REVIEW_EXPIRED), actions: [expiry] };
  const evidence: DecisionEvidence = {
    trace: outcome.evaluations,
    velocityWindows: r.bundle.windows,
    shadow: shadowOutcome(r.shadow, r.situation, read, r.maxGroups),
    prices: r.quotes,
  };
  return {
    verdict: { ...evaluated(r, outcome), evidence },
    ...(outcome.decision === "allow" ? { charges: r.plan.charges } : {}),
    ...(outcome.decision === "defer" ? { outcome } : {}),
  };
}

async function write(session: DecisionSession, r: Recording, step: Step): Promise<Decided> {
  const v = step.verdict;
  const row: DecisionRow = {
    id: randomUUID(),
    decidedAt: writtenAt(r),
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
  };
  // The first defer of this content by a rule that asks for review opens it (src/review).
  const opening =
    step.outcome && r.review === null
      ? reviewOpening({ bundle: r.bundle, tx: r.situation.tx, digest: r.digest, now: r.situation.now, outcome: step.outcome, decisionId: row.id })
      : null;
  const actions = [...(step.actions ?? []), ...(opening?.actions ?? [])];
  await traced("countersign.audit.write", () => session.write(writeArgs({ decision: row, review: opening?.review ?? null, actions, charges: step.charges ?? [] })));
  if (opening) r.opened.push({ review: opening.review, bundle: r.bundle });
  const { decision, reasons, replayed, replayOf, policyVersion, policyDigest, matched: matchedRules } = v;
  const cause = v.deferCause ? { deferCause: v.deferCause } : {};
  const shadow = v.evidence?.shadow ? { shadow: shadowVerdict(v.evidence.shadow) } : {};
  return { kind: "decided", decision, decisionId: row.id, policyVersion, reasons, replayed, replayOf, policyDigest, matchedRules, ...cause, ...shadow };
}

/**
 * The row's time, which its charges are stamped with (countersign_decision_write): now, when the
 * row is written, not when the decision began. In between, a decision waits for its groups' locks
 * (other deliveries from the same wallet hold them) and for the custody API, up to the decision
 * timeout; a charge stamped with the start would leave its windows that long before the payment it
 * allows is as old as they are. Never before the start, whichever way the clock stepped: a later
 * stamp only keeps the charge counting longer. The windows were read at the start, whose earlier
 * old edge only counts more; the facts keep it as `now`.
 */
function writtenAt(r: Recording): Date {
  const written = r.clock();
  return written.getTime() > r.situation.now.getTime() ? written : r.situation.now;
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

/** A fresh evaluation by the bundle in force. */
function evaluated(r: Recording, outcome: Pick<Outcome, "decision" | "reasons" | "matched" | "facts">): Verdict {
  const { decision, reasons, matched, facts } = outcome;
  return { decision, reasons, matched, facts, replayed: false, replayOf: null, policyVersion: r.bundle.version, policyDigest: r.bundle.digest };
}

/**
 * A later delivery of a decided name: the same answer, or a denial when its content changed, when
 * it was allowed and its charges were voided since, or when its row went with an archived month
 * (its answer is not known, and a name is decided once). Voiding frees the room on the premise
 * that the transaction moved no money; signing it again would move money no window counts.
 */
function repeat(r: Recording, final: FinalDecision | ArchivedFinalDecision): Step {
  // replay_of must name a row that exists: the archived one's id goes in the reason instead.
  if ("archived" in final) return outright(r, "deny", `${DECIDED_THEN_ARCHIVED} ${final.id}`);
  const refusal = final.contentDigest !== r.digest ? CONFLICTING_SNAPSHOT : final.decision === "allow" && final.voided ? ALLOWED_THEN_VOIDED : null;
  if (refusal !== null) {
    const denial = evaluated(r, { decision: "deny", reasons: [refusal], matched: [], facts: [] });
    return { verdict: { ...denial, replayOf: final.id } };
  }
  return {
    verdict: {
      decision: final.decision,
      reasons: final.reasons,
      matched: final.matchedRules,
      facts: [],
      replayed: true,
      replayOf: final.id,
      policyVersion: final.policyVersion,
      policyDigest: final.policyDigest,
    },
  };
}

/** A decision made without evaluating the policy: a stale copy, a reported failure, the group cap, a closed review. */
function outright(r: Recording, decision: Decision, reason: string, deferCause?: Decided["deferCause"]): Step {
  const verdict = evaluated(r, { decision, reasons: [reason], matched: [], facts: [] });
  return { verdict: deferCause ? { ...verdict, deferCause } : verdict };
}
