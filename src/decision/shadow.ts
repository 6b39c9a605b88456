/**
 * Shadow evaluation (COUNTERSIGN_SHADOW_POLICIES): every fresh decision is also evaluated by a
 * candidate bundle on the same situation and the same ledger read, and what it said is stored in
 * the decision row. The answer follows the live bundle only. Evaluation is pure and in-process, so
 * the only bound it needs is this: nothing the shadow does can throw out of here — a failure is
 * recorded as `shadow_error` and the request goes on.
 */
import type { ShadowRecord } from "../audit/decision-rows.js";
import type { Decision, PolicyBundle } from "../core/policy/types.js";
import { windowTotalId, type WindowQuery, type WindowTotal } from "../velocity/ledger.js";
import { assess, planVelocity, totalsByWindow, type Situation } from "../core/assess.js";
import { readsDollars } from "../core/policy/reads-dollars.js";
import { windowGroupCapReason } from "./group-cap.js";

/** What the shadow said of a fresh decision, as the log and metrics name it: "error" when it has no decision. */
export type ShadowVerdict = Decision | "error";

export function shadowVerdict(record: ShadowRecord): ShadowVerdict {
  return record.decision ?? "error";
}

/** Shadow window names are kept apart from live ones: the same name may have another duration. */
const PREFIX = "\u0000shadow:";

export interface ShadowSource {
  /** Null while no candidate is admitted (src/policy/shadow-candidate.ts). */
  current(): PolicyBundle | null;
}

/** The candidate in force, or null when there is none or it cannot be read. */
export function shadowBundle(source: ShadowSource | undefined): PolicyBundle | null {
  try {
    return source?.current() ?? null;
  } catch {
    return null;
  }
}

/** Whether the candidate reads dollars (its decisions then need prices too); a candidate that throws does not. */
export function shadowReadsDollars(shadow: PolicyBundle | null): boolean {
  try {
    return shadow !== null && readsDollars(shadow);
  } catch {
    return false; // shadowOutcome meets the same failure and records it
  }
}

/**
 * The window totals the shadow reads, to be fetched in the live read's round trip. The shadow is
 * held to the same COUNTERSIGN_MAX_WINDOW_GROUPS cap as the live bundle: its reads run inside the
 * live decision's transaction, while the live group locks are held and against the live deadline,
 * so a candidate with more groups than the cap reads nothing and is recorded as not evaluated.
 */
export function shadowQueries(shadow: PolicyBundle | null, situation: Situation, maxGroups: number): WindowQuery[] {
  if (!shadow) return [];
  try {
    const plan = planVelocity(shadow, situation);
    if (windowGroupCapReason(plan.keys.length, maxGroups) !== null) return [];
    return plan.queries.map((q) => ({ ...q, window: PREFIX + q.window }));
  } catch {
    return []; // shadowOutcome meets the same failure and records it
  }
}

export function shadowOutcome(shadow: PolicyBundle | null, situation: Situation, read: ReadonlyMap<string, WindowTotal>, maxGroups: number): ShadowRecord | undefined {
  if (!shadow) return undefined;
  let version = "(unknown)";
  let digest = "(unknown)";
  try {
    version = shadow.version;
    digest = shadow.digest;
    const plan = planVelocity(shadow, situation);
    const tooMany = windowGroupCapReason(plan.keys.length, maxGroups);
    if (tooMany !== null) return { policyVersion: version, policyDigest: digest, decision: null, matchedRules: null, error: `shadow not evaluated: ${tooMany}` };
    const queries = plan.queries;
    const own = new Map(queries.map((q) => [windowTotalId(q.window, q.key), read.get(windowTotalId(PREFIX + q.window, q.key))] as const));
    const totals = totalsByWindow(queries, new Map([...own].filter((e): e is [string, WindowTotal] => e[1] !== undefined)));
    const outcome = assess(shadow, situation, totals);
    return { policyVersion: version, policyDigest: digest, decision: outcome.decision, matchedRules: outcome.matched, error: null };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { policyVersion: version, policyDigest: digest, decision: null, matchedRules: null, error: `shadow evaluation failed: ${message.slice(0, 200)}` };
  }
}
