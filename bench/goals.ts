/**
 * The ratios issue 13 sets as goals, printed plainly with the figures they come from. Pure.
 * Decisions/s on a shared machine move 10–30% from one run to the next, so the figures a ratio
 * needs are measured in rounds (BENCH_ROUNDS), each round's ratio from its own figures, and a goal
 * is judged on the median round; every round's value is printed beside it.
 */

export interface GoalInputs {
  at16: { perSecond: number; latencyP99: number };
  floor: { perSecond: number };
  ceiling: { perSecond: number };
  hot: { perSecond: number };
  baseline: { perSecond: number } | null;
  baselineRef: string | null;
  /**
   * This checkout on the policy the baseline decides by (the example without the dollar window a
   * baseline before dollar windows cannot load), measured beside it: "no slower than before" on
   * the same work. Absent when no baseline was measured.
   */
  samePolicy?: { perSecond: number } | null;
}

/** The baseline issue 13's "three times as many decisions" was set against (bench/run.ts's default). */
export const GOAL_BASELINE = "32c2789";

interface Goal {
  what: string;
  value: number;
  /** "at least" or "at most" the target; "none" where the target was set for another baseline. */
  bound: "min" | "max" | "none";
  target: number;
  unit?: string;
}

/** A goal over several rounds: `value` is the median round's, `rounds` every round's in order. */
export interface RoundsGoal extends Goal {
  rounds: number[];
}

export function goals(i: GoalInputs): Goal[] {
  const list: Goal[] = [
    { what: "countersign(16) / SQL ceiling", value: i.at16.perSecond / i.ceiling.perSecond, bound: "min", target: 0.5 },
    { what: "SQL ceiling / durable floor", value: i.ceiling.perSecond / i.floor.perSecond, bound: "min", target: 0.35 },
    { what: "hot wallet / uncontended (16)", value: i.hot.perSecond / i.at16.perSecond, bound: "min", target: 0.25 },
    { what: "p99 at 16 connections", value: i.at16.latencyP99, bound: "max", target: 50, unit: " ms" },
  ];
  if (i.baseline) {
    const bound = i.baselineRef === GOAL_BASELINE ? "min" : "none";
    list.push({ what: `countersign(16) / baseline ${i.baselineRef ?? ""}`.trimEnd(), value: i.at16.perSecond / i.baseline.perSecond, bound, target: 3 });
  }
  if (i.baseline && i.samePolicy) {
    list.push({ what: `same policy as baseline / baseline ${i.baselineRef ?? ""}`.trimEnd(), value: i.samePolicy.perSecond / i.baseline.perSecond, bound: "min", target: 1 });
  }
  return list;
}

/** Each goal over the rounds given (at least one; the same goals in each). */
export function goalsOverRounds(rounds: readonly GoalInputs[]): RoundsGoal[] {
  const perRound = rounds.map(goals);
  return perRound[0]!.map((g, k) => {
    const values = perRound.map((round) => round[k]?.value ?? NaN);
    return { ...g, value: median(values), rounds: values };
  });
}

/** The middle value (the mean of the two middle ones for an even count); NaN if any is NaN. */
export function median(values: readonly number[]): number {
  if (values.length === 0 || values.some((v) => Number.isNaN(v))) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Whether a goal is met; false for a ratio without one ("none"). */
export function met(g: Goal): boolean {
  if (g.bound === "none") return false;
  return Number.isFinite(g.value) && (g.bound === "min" ? g.value >= g.target : g.value <= g.target);
}

/** One line per goal over the rounds given (at least one). */
export function ratioLines(rounds: readonly GoalInputs[]): string[] {
  const lines = goalsOverRounds(rounds).map((g) => {
    const unit = g.unit ?? "";
    const show = (v: number) => (unit ? v.toFixed(1) : v.toFixed(2));
    const shown = `${show(g.value)}${unit}`;
    const each = g.rounds.length > 1 ? `   rounds ${g.rounds.map(show).join(", ")}` : "";
    const judged =
      g.bound === "none"
        ? `no goal (the goal of ${g.target} is against ${GOAL_BASELINE})`
        : `goal ${g.bound === "min" ? ">=" : "<="} ${g.target}${unit}   ${met(g) ? "met" : "NOT met"}`;
    return `${g.what.padEnd(40)} ${shown.padStart(9)}   ${judged}${each}`;
  });
  if (!rounds[0]!.baseline) lines.push("countersign(16) / baseline                   (no baseline measured)");
  return lines;
}
