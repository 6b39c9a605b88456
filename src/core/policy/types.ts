/**
 * A loaded, validated policy bundle (docs/interface.md section 3) and what evaluating it yields.
 */
import type { Facts } from "../facts/types.js";
import type { ReviewerGroups, RuleReview } from "../review/types.js";
import type { Comparison } from "./trace.js";

export type RuleDecision = "allow" | "deny" | "defer";
export type Decision = RuleDecision;
export type DefaultDecision = "deny" | "defer";

export type GroupDimension = "vault" | "sourceWallet" | "destination" | "asset" | "network" | "initiator";

export interface WindowSpec {
  name: string;
  /** Length of the window in seconds. */
  durationSeconds: number;
  /** As written in the bundle, e.g. `24h`. */
  duration: string;
  groupBy: GroupDimension[];
  /** amount: units of one asset; usd: dollars across assets (docs/interface.md section 10); count: transfers. */
  measure: "amount" | "count" | "usd";
}

export interface Rule {
  id: string;
  decision: RuleDecision;
  reason: string | null;
  /** A JSON-logic expression, already validated (known operations, safe var paths). */
  when: unknown;
  /** A defer rule's review requirement (docs/interface.md section 9): once met, the rule counts as not matched. */
  review?: RuleReview;
}

export interface PolicyBundle {
  version: string;
  description: string | null;
  default: DefaultDecision;
  windows: WindowSpec[];
  rules: Rule[];
  /** Reviewer groups (docs/interface.md section 9); absent or empty when the bundle has none. */
  reviewers?: ReviewerGroups;
  /** SHA-256 (hex) over the bundle's files in canonical order. */
  digest: string;
  /** The directory it was loaded from. */
  directory: string;
}

export interface RuleMatch {
  rule: string;
  decision: RuleDecision;
  /** Transfer index, or null for a transaction evaluated without transfers. */
  transfer: number | null;
  /** Set when the rule's evaluation failed and the error resolved it to the safe side. */
  error?: string;
}

/** One rule against one facts document, with what its comparisons saw (traced evaluations only). */
export interface RuleTrace {
  rule: string;
  decision: RuleDecision;
  result: "matched" | "not matched" | "error";
  /** How the rule counted: an error counts as matched for deny and defer rules. */
  matched: boolean;
  /** A defer rule whose `when` held but whose review requirement is met: not matched. */
  reviewMet?: true;
  error?: string;
  comparisons: Comparison[];
}

/** The result of one evaluation (one transfer, or the transaction without transfers). */
export interface EvaluationTrace {
  transfer: number | null;
  decision: Decision;
  /** Every rule that matched (including error-matched ones). */
  matched: RuleMatch[];
  /** Rules whose `when` failed to evaluate, whether or not that made them match. */
  errors: { rule: string; error: string }[];
  /** True when no rule matched and the bundle default decided. */
  byDefault: boolean;
  /** Every rule in bundle order, when the evaluation was traced. */
  rules?: RuleTrace[];
}

export interface Outcome {
  decision: Decision;
  /** Human-readable reasons for a deny or defer (rule reasons, or the default). */
  reasons: string[];
  matched: RuleMatch[];
  evaluations: EvaluationTrace[];
  facts: Facts[];
}
