/**
 * How the machine's CPU time was spent while a figure was measured (Linux /proc/stat, all CPUs).
 * On a virtual machine the hypervisor may hand this machine's time to others ("steal"): every
 * figure taken meanwhile is lower than the code deserves, and the ratios between figures taken at
 * different moments shift. The bench prints the share beside each figure so a reader can tell.
 */
import { readFileSync } from "node:fs";

export interface CpuSplit {
  /** Percent of all CPU time the hypervisor gave to others. */
  stealPct: number;
  /** Percent of all CPU time no process wanted. */
  idlePct: number;
}

/** user nice system idle iowait irq softirq steal, in clock ticks; null where /proc/stat is absent. */
function ticks(): number[] | null {
  try {
    const first = readFileSync("/proc/stat", "utf8").split("\n")[0]!;
    if (!first.startsWith("cpu ")) return null;
    return first.trim().split(/\s+/).slice(1, 9).map(Number);
  } catch {
    return null;
  }
}

export function splitBetween(before: readonly number[], after: readonly number[]): CpuSplit | null {
  const d = after.map((t, i) => t - (before[i] ?? 0));
  const total = d.reduce((a, b) => a + b, 0);
  if (total <= 0) return null;
  return { stealPct: (100 * (d[7] ?? 0)) / total, idlePct: (100 * ((d[3] ?? 0) + (d[4] ?? 0))) / total };
}

export async function withCpuSplit<T>(run: () => Promise<T>): Promise<{ value: T; cpu: CpuSplit | null }> {
  const before = ticks();
  const value = await run();
  const after = ticks();
  return { value, cpu: before && after ? splitBetween(before, after) : null };
}

/** `   steal 3%` (nothing where it could not be read). */
export function fmtSteal(cpu: CpuSplit | null | undefined): string {
  return cpu ? `   steal ${cpu.stealPct.toFixed(0)}%` : "";
}
