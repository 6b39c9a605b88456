/**
 * One process at a time on the embedded database's data directory.
 *
 * PGlite is Postgres in single-user mode inside this process: its buffers, WAL position and
 * transaction ids live in this process's memory, and it takes no lock on its files (its
 * postmaster.pid always says -42). A second process on the same directory (`npm start` run twice,
 * a restart while the old process still drains, `countersign velocity void` beside the service)
 * opened the same files with buffers of its own: each decided against windows that missed the
 * other's charges (a wallet sent its limit once per process), and each overwrote the other's
 * pages, so 200s answered by one were gone from the store after a restart.
 *
 * The lock is a file created only if absent (link(2) of a complete file, so it is never read half
 * written), holding who took it. It is stale when its holder is known to be gone: same host, and
 * that process id is not running, or is running but started at another time (an id reused, a
 * container restarted). A holder on another host (a shared volume) cannot be checked from here, so
 * its lock is never taken over: the operator removes the file once that process is gone.
 */
import { linkSync, readFileSync, unlinkSync, writeFileSync, openSync, closeSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";
import { err, ok, type Result } from "../core/errors.js";

export const LOCK_FILE = "countersign.lock";

interface Holder {
  pid: number;
  hostname: string;
  /** The process's start time in clock ticks since boot (/proc/PID/stat), where there is /proc. */
  startTicks: number | null;
  since: string;
}

export type DataDirLockError =
  | { code: "DATA_DIR_LOCKED"; lockPath: string; holder: Holder | null }
  | { code: "DATA_DIR_TAKEOVER_IN_PROGRESS"; lockPath: string }
  | { code: "DATA_DIR_UNWRITABLE"; lockPath: string; reason: string };

export interface DataDirLock {
  release: () => void;
}

/** Lock paths this process holds: its own id in a lock file is live only if listed here. */
const heldHere = new Set<string>();

/** /proc/PID/stat's fields from the third (state) on, where there is /proc. */
function procStat(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

function startTicksOf(pid: number): number | null {
  const value = Number(procStat(pid)?.[19]); // field 22, starttime
  return Number.isFinite(value) ? value : null;
}

function readHolder(lockPath: string): Holder | null {
  try {
    const parsed = JSON.parse(readFileSync(lockPath, "utf8")) as Partial<Holder>;
    if (typeof parsed.pid !== "number" || typeof parsed.hostname !== "string") return null;
    return { pid: parsed.pid, hostname: parsed.hostname, startTicks: typeof parsed.startTicks === "number" ? parsed.startTicks : null, since: String(parsed.since ?? "") };
  } catch {
    return null;
  }
}

/** Only a holder known to be gone is stale; anything unreadable or unknowable is live. */
function holderIsGone(lockPath: string, holder: Holder | null): boolean {
  if (holder === null || holder.hostname !== hostname()) return false;
  if (holder.pid === process.pid) return !heldHere.has(lockPath);
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
  // A killed process its parent has not reaped yet still answers kill(pid, 0) but holds no file.
  if (procStat(holder.pid)?.[0] === "Z") return true;
  const ticks = startTicksOf(holder.pid);
  return holder.startTicks !== null && ticks !== null && ticks !== holder.startTicks;
}

function tryCreate(lockPath: string): "created" | "exists" {
  const me: Holder = { pid: process.pid, hostname: hostname(), startTicks: startTicksOf(process.pid), since: new Date().toISOString() };
  const draft = `${lockPath}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(draft, JSON.stringify(me) + "\n", { mode: 0o600 });
  try {
    linkSync(draft, lockPath);
    return "created";
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return "exists";
    throw error;
  } finally {
    unlinkSync(draft);
  }
}

/**
 * Removes a stale lock, one remover at a time: two processes starting together on a stale lock
 * could otherwise each remove it, the second removing the first's fresh one, and both proceed.
 */
function removeStale(lockPath: string, stale: Holder | null): Result<void, DataDirLockError> {
  const guardPath = `${lockPath}.takeover`;
  let guard: number;
  try {
    guard = openSync(guardPath, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return err({ code: "DATA_DIR_TAKEOVER_IN_PROGRESS", lockPath });
    throw error;
  }
  try {
    const now = readHolder(lockPath);
    if (JSON.stringify(now) === JSON.stringify(stale)) unlinkSync(lockPath);
    return ok(undefined);
  } finally {
    closeSync(guard);
    unlinkSync(guardPath);
  }
}

export function lockDataDir(dataDir: string): Result<DataDirLock, DataDirLockError> {
  const lockPath = path.resolve(dataDir, LOCK_FILE);
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      if (tryCreate(lockPath) === "created") {
        heldHere.add(lockPath);
        return ok({ release: () => release(lockPath) });
      }
      const holder = readHolder(lockPath);
      if (!holderIsGone(lockPath, holder)) return err({ code: "DATA_DIR_LOCKED", lockPath, holder });
      const removed = removeStale(lockPath, holder);
      if (!removed.ok) return removed;
    }
    return err({ code: "DATA_DIR_LOCKED", lockPath, holder: readHolder(lockPath) });
  } catch (error) {
    return err({ code: "DATA_DIR_UNWRITABLE", lockPath, reason: (error as NodeJS.ErrnoException).code ?? String(error) });
  }
}

function release(lockPath: string): void {
  if (!heldHere.delete(lockPath)) return;
  const holder = readHolder(lockPath);
  // Never remove a lock that is no longer ours (an operator removed it and another process took it).
  if (holder?.pid === process.pid && holder.hostname === hostname()) {
    try {
      unlinkSync(lockPath);
    } catch {
      // already gone
    }
  }
}

/** For the operator: what holds the directory and what to do. */
export function describeLockError(error: DataDirLockError): string {
  switch (error.code) {
    case "DATA_DIR_LOCKED": {
      const who = error.holder ? `process ${error.holder.pid} on ${error.holder.hostname} since ${error.holder.since}` : "a process (the lock file is unreadable)";
      return `the embedded database is in use by ${who}: one process at a time may open it (stop that one first; remove ${error.lockPath} only if no process uses the directory)`;
    }
    case "DATA_DIR_TAKEOVER_IN_PROGRESS":
      return `another process is taking over the embedded database's stale lock (remove ${error.lockPath}.takeover only if no process is starting on the directory)`;
    case "DATA_DIR_UNWRITABLE":
      return `cannot lock the embedded database's directory (${error.lockPath}: ${error.reason}): COUNTERSIGN_DATA_DIR must be writable`;
  }
}
