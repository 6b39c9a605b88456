/**
 * How the machine's CPU time was spent while a figure was measured (Linux /proc).
 *
 * - Steal: on a virtual machine the hypervisor may hand this machine's time to others; every
 *   figure taken meanwhile is lower than the code deserves, and the ratios between figures taken
 *   at different moments shift. The bench prints the share beside each figure so a reader can tell.
 * - Per process: the service, the Postgres server and the load client share this machine's CPUs,
 *   so each one's CPU time per decision (or per replayed transaction) says where the machine went,
 *   and why a figure sits below the ceiling measured without the others.
 */
import { readdirSync, readFileSync } from "node:fs";

export interface CpuSplit {
  /** Percent of all CPU time the hypervisor gave to others. */
  stealPct: number;
  /** Percent of all CPU time no process wanted. */
  idlePct: number;
  /** CPU milliseconds each watched process group spent during the run (where /proc could tell). */
  processMs?: Record<string, number>;
}

/** Reads a process group's CPU time in clock ticks; null where it cannot be read. */
export type TicksReader = () => number | null;

/** Linux's USER_HZ: /proc reports CPU times in hundredths of a second on every mainstream build. */
const TICK_MS = 10;

/** user nice system idle iowait irq softirq steal, in clock ticks; null where /proc/stat is absent. */
function machineTicks(): number[] | null {
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

interface ProcStat {
  ppid: number;
  /** utime + stime */
  own: number;
  /** cutime + cstime: children that exited and were waited for */
  reaped: number;
}

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
export function parseProcStat(text: string): ProcStat | null {
  const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
  if (f.length < 15) return null;
  return { ppid: Number(f[1]), own: Number(f[11]) + Number(f[12]), reaped: Number(f[13]) + Number(f[14]) };
}

function procStat(pid: number): ProcStat | null {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return null;
  }
}

/** The process that started `pid`, when `pid` runs here and is named `name`. */
export function parentIfNamed(pid: number, name: string): number | null {
  try {
    if (readFileSync(`/proc/${pid}/comm`, "utf8").trim() !== name) return null;
  } catch {
    return null;
  }
  return procStat(pid)?.ppid ?? null;
}

/** One process's own CPU time. */
export function processTicks(pid: number): TicksReader {
  return () => procStat(pid)?.own ?? null;
}

/** The CPU time of this process's children that have exited (a pgbench run, once it is done). */
export function reapedChildrenTicks(): TicksReader {
  return () => procStat(process.pid)?.reaped ?? null;
}

/**
 * A Postgres server's CPU time: the postmaster's own and its exited children's, plus every live
 * child's (backends, WAL writer, checkpointer, ...).
 *
 * A child the postmaster waits for while /proc is being walked moves its time into the
 * postmaster's "reaped" figure and out of /proc at once: read before the walk, its time would be
 * in neither place. Right after a run's clients disconnect every one of their backends is being
 * waited for, and a reading lost all of them (an SQL ceiling at half its CPU time). So the walk
 * counts only when the reaped figure did not move across it, and is retried otherwise.
 */
export function serverTicks(postmasterPid: number): TicksReader {
  return () => {
    for (let attempt = 0; attempt < 50; attempt++) {
      const before = procStat(postmasterPid);
      if (!before) return null;
      const live = liveChildrenTicks(postmasterPid);
      const after = procStat(postmasterPid);
      if (!after) return null;
      if (after.reaped === before.reaped) return after.own + after.reaped + live;
    }
    return null;
  };
}

function liveChildrenTicks(parentPid: number): number {
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(entry)) continue;
    const child = procStat(Number(entry));
    if (child?.ppid === parentPid) ticks += child.own;
  }
  return ticks;
}

/** Runs `run`, reporting the machine's split and the CPU time of each `watched` group meanwhile. */
export async function withCpuSplit<T>(run: () => Promise<T>, watched: Record<string, TicksReader> = {}): Promise<{ value: T; cpu: CpuSplit | null }> {
  const before = machineTicks();
  const groupsBefore = Object.entries(watched).map(([name, read]) => [name, read()] as const);
  const value = await run();
  const after = machineTicks();
  const split = before && after ? splitBetween(before, after) : null;
  if (!split) return { value, cpu: null };
  const processMs: Record<string, number> = {};
  for (const [name, start] of groupsBefore) {
    const end = watched[name]!();
    if (start !== null && end !== null) processMs[name] = (end - start) * TICK_MS;
  }
  return { value, cpu: Object.keys(processMs).length > 0 ? { ...split, processMs } : split };
}

/**
 * `   steal 3%   idle 15%` (nothing where it could not be read). Idle is printed because a figure
 * can be limited without any CPU being full: with the service, Postgres and the load client on the
 * same cores, a core idles while the only runnable work is one single-threaded process's.
 */
export function fmtMachineCpu(cpu: CpuSplit | null | undefined): string {
  return cpu ? `   steal ${cpu.stealPct.toFixed(0)}%   idle ${cpu.idlePct.toFixed(0)}%` : "";
}

/** `cpu per decision: service 1.71 ms  postgres 1.64 ms` — each group's CPU time over `units`; empty when none was read. */
export function fmtCpuPer(unit: string, units: number, processMs: Record<string, number> | undefined): string {
  const parts = Object.entries(processMs ?? {}).map(([name, ms]) => `${name} ${(ms / units).toFixed(2)} ms`);
  return parts.length > 0 && units > 0 ? `cpu per ${unit}: ${parts.join("   ")}` : "";
}
