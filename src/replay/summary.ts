/**
 * What a replay found: exact counts over every row, and the changed (and not replayable)
 * decisions themselves up to a limit, so memory stays bounded at millions of rows.
 */
import type { Decision, Outcome, PolicyBundle } from "../core/policy/types.js";
import type { WindowStartingShort } from "./ledger-as-of.js";
import type { RowResult } from "./replay-rows.js";
import type { RecordedDecision, ReplayRange } from "./recorded.js";

export interface DecisionSide {
  decision: Decision;
  rules: string[];
}

export interface ChangedDecision {
  decisionId: string;
  transactionName: string;
  vault: string;
  decidedAt: string;
  /** `120.5 assets/native.ethereum-mainnet`, one per transfer; `($361,593.5)` after it when the decision priced it. */
  amounts: string[];
  from: DecisionSide;
  to: DecisionSide;
}

export interface NotReplayable {
  decisionId: string;
  transactionName: string;
  reason: string;
}

export interface ReplayReport {
  candidate: { version: string; digest: string; directory: string };
  range: { from: string; to: string; vault: string | null };
  replayed: number;
  unchanged: number;
  changed: number;
  notReplayable: number;
  /**
   * Of those, decisions the recorded bundle did evaluate (they have facts) that the candidate could
   * not be replayed on — a window the ledger cannot recompute, unreadable facts: for all the replay
   * can tell, they change.
   */
  unjudged: number;
  /** `allow → deny`: count */
  transitions: Record<string, number>;
  /** The candidate's rules (or `(default)`) that decided the changed decisions: count */
  byRule: Record<string, number>;
  changes: ChangedDecision[];
  /** Changed decisions counted but not listed (over the limit). */
  changesNotListed: number;
  notReplayableDecisions: NotReplayable[];
  notReplayableReasons: Record<string, number>;
  /**
   * The candidate's windows that would start without the spending already done if it took effect
   * now (a changed groupBy): the live service would allow each group's whole limit again.
   */
  windowsStartingShort: WindowStartingShort[];
}

export const DEFAULT_LIST_LIMIT = 1000;

/**
 * What the replay shows, and whether it shows the candidate changes nothing — what
 * `--fail-on-change` passes on. A replay that evaluated nothing, or could not evaluate a decision
 * the policy had decided, shows nothing: a mistyped vault or a window the ledger cannot recompute
 * must not read as "no changes".
 */
export function replayVerdict(r: ReplayReport): { changesNothing: boolean; text: string } {
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  if (r.changed > 0) return { changesNothing: false, text: `${plural(r.changed, "recorded decision", "recorded decisions")} would change` };
  if (r.unjudged > 0) {
    return { changesNothing: false, text: `${plural(r.unjudged, "decision", "decisions")} could not be replayed: the candidate is not shown to change nothing` };
  }
  if (r.replayed === 0) return { changesNothing: false, text: "nothing replayed: no recorded decision in the range was evaluated" };
  const short = r.windowsStartingShort;
  if (short.length > 0) {
    return {
      changesNothing: false,
      text: `no recorded decision changes, but ${plural(short.length, "window", "windows")} (${short.map((w) => w.window).join(", ")}) would start without the spending already done`,
    };
  }
  return { changesNothing: true, text: "no recorded decision changes" };
}

export class ReplayTally {
  private readonly report: ReplayReport;

  constructor(
    candidate: PolicyBundle,
    range: ReplayRange,
    private readonly listLimit = DEFAULT_LIST_LIMIT,
  ) {
    this.report = {
      candidate: { version: candidate.version, digest: candidate.digest, directory: candidate.directory },
      range: { from: range.from.toISOString(), to: range.to.toISOString(), vault: range.vault ?? null },
      replayed: 0,
      unchanged: 0,
      changed: 0,
      notReplayable: 0,
      unjudged: 0,
      transitions: {},
      byRule: {},
      changes: [],
      changesNotListed: 0,
      notReplayableDecisions: [],
      notReplayableReasons: {},
      windowsStartingShort: [],
    };
  }

  add(result: RowResult): void {
    const r = this.report;
    if (result.kind === "not replayable") {
      r.notReplayable++;
      // A decision made without evaluating the policy (no facts) is not the candidate's to change.
      if (result.row.facts.length > 0) r.unjudged++;
      const kind = result.reason.replace(/ before .*$/, "");
      r.notReplayableReasons[kind] = (r.notReplayableReasons[kind] ?? 0) + 1;
      if (r.notReplayableDecisions.length < this.listLimit) {
        r.notReplayableDecisions.push({ decisionId: result.row.id, transactionName: result.row.transactionName, reason: result.reason });
      }
      return;
    }
    r.replayed++;
    const { row, outcome } = result;
    if (outcome.decision === row.decision) {
      r.unchanged++;
      return;
    }
    r.changed++;
    const transition = `${row.decision} → ${outcome.decision}`;
    r.transitions[transition] = (r.transitions[transition] ?? 0) + 1;
    const to = decidingRules(outcome);
    for (const rule of to.length > 0 ? to : ["(default)"]) r.byRule[rule] = (r.byRule[rule] ?? 0) + 1;
    if (r.changes.length >= this.listLimit) {
      r.changesNotListed++;
      return;
    }
    r.changes.push({
      decisionId: row.id,
      transactionName: row.transactionName,
      vault: row.vault,
      decidedAt: row.decidedAt.toISOString(),
      amounts: amountsOf(row),
      from: { decision: row.decision, rules: unique(row.matchedRules.filter((m) => m.decision === row.decision).map((m) => m.rule)) },
      to: { decision: outcome.decision, rules: to },
    });
  }

  windowsStartingShort(windows: WindowStartingShort[]): void {
    this.report.windowsStartingShort = windows;
  }

  result(): ReplayReport {
    return this.report;
  }
}

function decidingRules(outcome: Outcome): string[] {
  return unique(outcome.matched.filter((m) => m.decision === outcome.decision).map((m) => m.rule));
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}

function amountsOf(row: RecordedDecision): string[] {
  return row.facts.flatMap((f) =>
    f.transfer ? [`${f.transfer.amount ?? `${f.transfer.rawAmount ?? "?"} (raw)`} ${f.transfer.asset}${f.transfer.usd ? ` ($${f.transfer.usd})` : ""}`] : [],
  );
}
