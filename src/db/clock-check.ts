/**
 * This process's clock against the database's. Each replica reads its velocity windows and stamps
 * the charges it writes by its own clock (src/decision/decide.ts). A replica running S ahead reads
 * windows whose old edge is S late, so charges drop out of them S early; one running S behind
 * stamps charges that drop out of the other replicas' windows S early. Either way a wallet could
 * send its limit twice within a window's length less S. The database's clock is the one every
 * replica shares, so each replica measures itself against it, and while it is out of step by more
 * than COUNTERSIGN_MAX_CLOCK_SKEW it decides nothing (503: the co-signer asks again, maybe of
 * another replica) and `/readyz` says why.
 */
import { sql } from "kysely";
import type { AnyDb } from "./any-db.js";
import type { ReadinessCheck } from "../readiness.js";
import { describeError, type Logger } from "../log.js";

/** Where the database's clock stood against ours, and how far the round trip leaves that open. */
export interface ClockReading {
  /** The database's clock minus this process's, at the middle of the round trip. */
  offsetMs: number;
  /** Half the round trip: the offset is known to within this. */
  uncertaintyMs: number;
}

export type ClockState = { kind: "unknown" } | { kind: "in_step"; offsetMs: number } | { kind: "skewed"; offsetMs: number };

/**
 * The state a reading shows. A reading whose round trip leaves it open whether the offset is
 * within the tolerance (a slow or queued query) changes nothing: the last clear reading stands.
 */
export function judgeClock(previous: ClockState, reading: ClockReading, toleranceMs: number): ClockState {
  const least = Math.abs(reading.offsetMs) - reading.uncertaintyMs;
  const most = Math.abs(reading.offsetMs) + reading.uncertaintyMs;
  if (least > toleranceMs) return { kind: "skewed", offsetMs: reading.offsetMs };
  if (most <= toleranceMs) return { kind: "in_step", offsetMs: reading.offsetMs };
  return previous;
}

/** One reading, on a connection of its own so that no wait for the pool counts as round trip. */
export async function readClock(db: AnyDb, hostNow: () => number): Promise<ClockReading> {
  return db.connection().execute(async (conn) => {
    const before = hostNow();
    const { rows } = await sql<{ at: string | number }>`select extract(epoch from clock_timestamp()) * 1000 as at`.execute(conn);
    const after = hostNow();
    const at = Number(rows[0]?.at);
    if (!Number.isFinite(at)) throw new Error("the database's clock could not be read");
    return { offsetMs: at - (before + after) / 2, uncertaintyMs: (after - before) / 2 };
  });
}

/** Why a process in this state may not decide, or null when it may. */
export function clockProblem(state: ClockState, toleranceMs: number): string | null {
  if (state.kind === "in_step") return null;
  if (state.kind === "unknown") return "this process's clock has not yet been compared with the database's";
  const seconds = (Math.abs(state.offsetMs) / 1000).toFixed(1);
  const way = state.offsetMs < 0 ? "ahead of" : "behind";
  return `this process's clock is ${seconds} s ${way} the database's (at most ${toleranceMs / 1000} s allowed, COUNTERSIGN_MAX_CLOCK_SKEW): it decides nothing until they agree`;
}

export interface ClockCheck {
  /** Why decisions must wait (the webhook defers), or null. */
  problem(): string | null;
  readiness: ReadinessCheck;
  /** Reads the database's clock now; a failed read leaves the state as it was. */
  check(): Promise<void>;
  stop(): void;
}

export interface ClockCheckOptions {
  db: AnyDb;
  logger: Logger;
  toleranceMs: number;
  intervalMs?: number;
  /** The host's clock (tests skew it); the decision's clock reads the same one in production. */
  hostNow?: () => number;
}

/** Compares the clocks every `intervalMs` (10 s); until the first clear reading, decisions wait. */
export function startClockCheck(options: ClockCheckOptions): ClockCheck {
  const { db, logger, toleranceMs } = options;
  const hostNow = options.hostNow ?? Date.now;
  let state: ClockState = { kind: "unknown" };
  let readFailed = false;
  const check = async () => {
    try {
      const reading = await readClock(db, hostNow);
      readFailed = false;
      const next = judgeClock(state, reading, toleranceMs);
      if (next.kind !== state.kind) report(logger, next, toleranceMs);
      state = next;
    } catch (error) {
      // The database being down fails every decision anyway; say so once.
      if (!readFailed) logger.warn(describeError(error), "the database's clock could not be read; retrying");
      readFailed = true;
    }
  };
  const timer = setInterval(() => void check(), options.intervalMs ?? 10_000);
  timer.unref();
  const problem = () => clockProblem(state, toleranceMs);
  return { problem, check, readiness: { name: "clock", check: async () => problem() }, stop: () => clearInterval(timer) };
}

function report(logger: Logger, state: ClockState, toleranceMs: number): void {
  if (state.kind === "skewed") logger.error({ offsetMs: state.offsetMs, toleranceMs }, clockProblem(state, toleranceMs)!);
  else if (state.kind === "in_step") logger.info({ offsetMs: state.offsetMs }, "this process's clock is in step with the database's");
}
