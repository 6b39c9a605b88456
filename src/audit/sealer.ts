/**
 * The sealer: links committed audit rows into the hash chain in the background, about every
 * second (migrations/20261122T1000_audit_3_chain.ts, `audit_seal`). Every replica runs one; the
 * database's advisory lock lets one seal at a time, and a batch that finds the lock taken simply
 * waits for the next tick. The decision path never waits on it: rows are inserted freely.
 */
import { sql } from "kysely";
import type { Db } from "../db/connect.js";
import { describeError, type Logger } from "../log.js";

/** Rows per batch; a full batch is followed at once by the next. */
export const SEAL_BATCH = 5_000;

/** Links every committed, unsealed row; returns how many (0 when another session holds the lock). */
export async function sealPending(db: Db, batch = SEAL_BATCH): Promise<number> {
  let total = 0;
  for (;;) {
    const { rows } = await sql<{ linked: number }>`select audit_seal(${batch}::int) as linked`.execute(db);
    const linked = Number(rows[0]?.linked ?? 0);
    if (linked <= 0) return total;
    total += linked;
    if (linked < batch) return total;
  }
}

export interface Sealer {
  stop(): Promise<void>;
}

export function startSealer(options: { db: Db; logger: Logger; intervalMs?: number }): Sealer {
  const { db, logger } = options;
  const intervalMs = options.intervalMs ?? 1_000;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let failing = false;
  const tick = () => {
    running = sealPending(db).then(
      () => {
        if (failing) logger.info({}, "audit sealer recovered");
        failing = false;
      },
      (error: unknown) => {
        // A database outage fails every tick; say so once, not every second.
        if (!failing) logger.warn(describeError(error), "audit sealing failed; retrying");
        failing = true;
      },
    );
    void running.then(() => {
      if (!stopped) schedule();
    });
  };
  const schedule = () => {
    timer = setTimeout(tick, intervalMs);
    timer.unref();
  };
  schedule();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
