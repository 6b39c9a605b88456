/** The ratios issue 13 sets as goals, printed plainly with the figures they come from. Pure. */

export interface GoalInputs {
  at16: { perSecond: number; latencyP99: number };
  floor: { perSecond: number };
  ceiling: { perSecond: number };
  hot: { perSecond: number };
  baseline: { perSecond: number } | null;
  baselineRef: string | null;
}

interface Goal {
  what: string;
  value: number;
  /** "at least" or "at most" the target. */
  bound: "min" | "max";
  target: number;
  unit?: string;
}

export function goals(i: GoalInputs): Goal[] {
  const list: Goal[] = [
    { what: "countersign(16) / SQL ceiling", value: i.at16.perSecond / i.ceiling.perSecond, bound: "min", target: 0.5 },
    { what: "SQL ceiling / durable floor", value: i.ceiling.perSecond / i.floor.perSecond, bound: "min", target: 0.35 },
    { what: "hot wallet / uncontended (16)", value: i.hot.perSecond / i.at16.perSecond, bound: "min", target: 0.25 },
    { what: "p99 at 16 connections", value: i.at16.latencyP99, bound: "max", target: 50, unit: " ms" },
  ];
  if (i.baseline) list.push({ what: `countersign(16) / baseline ${i.baselineRef ?? ""}`.trimEnd(), value: i.at16.perSecond / i.baseline.perSecond, bound: "min", target: 3 });
  return list;
}

export function met(g: Goal): boolean {
  return Number.isFinite(g.value) && (g.bound === "min" ? g.value >= g.target : g.value <= g.target);
}

export function ratioLines(i: GoalInputs): string[] {
  const lines = goals(i).map((g) => {
    const unit = g.unit ?? "";
    const shown = unit ? `${g.value.toFixed(1)}${unit}` : g.value.toFixed(2);
    return `${g.what.padEnd(40)} ${shown.padStart(9)}   goal ${g.bound === "min" ? ">=" : "<="} ${g.target}${unit}   ${met(g) ? "met" : "NOT met"}`;
  });
  if (!i.baseline) lines.push("countersign(16) / baseline                   (no baseline measured)");
  return lines;
}
