/**
 * The sealer: links committed audit rows into the hash chain in the background, about every
 * second (`audit_seal`, migrations/sql/functions/audit.sql). Every replica runs one; the
 * database's advisory lock lets one seal at a time, and a batch that finds the lock taken simply
 * waits for the next tick (for longer than verify's grace, and it warns: seal-watch.ts). The
 * decision path never waits on it: rows are inserted freely.
 */
import { sql } from "kysely";
import type { Db } from "../database.js";
import { describeError, type Logger } from "../log.js";
import { SealWatch, type WatchNotice } from "./seal-watch.js";

/** Rows per batch; a full batch is followed at once by the next. */
export const SEAL_BATCH = 5_000;

/** What one round of sealing did: linked rows, or found the lock held by another session from the start. */
export type SealRound = { ok: true; linked: number } | { ok: false; code: "locked" };

/** Links every committed, unsealed row. */
export async function sealRound(db: Db, batch = SEAL_BATCH): Promise<SealRound> {
  let total = 0;
  for (;;) {
    const { rows } = await sql<{ linked: number }>`select audit_seal(${batch}::int) as linked`.execute(db);
    const linked = Number(rows[0]?.linked ?? 0);
    if (linked < 0 && total === 0) return { ok: false, code: "locked" };
    if (linked <= 0) return { ok: true, linked: total };
    total += linked;
    if (linked < batch) return { ok: true, linked: total };
  }
}

/** Links every committed, unsealed row; returns how many (0 when another session holds the lock). */
export async function sealPending(db: Db, batch = SEAL_BATCH): Promise<number> {
  const round = await sealRound(db, batch);
  return round.ok ? round.linked : 0;
}

export interface Sealer {
  stop(): Promise<void>;
}

/** `stallAfterMs`: how long sealing may fail or find its lock held before a warning (default: verify's grace). */
export function startSealer(options: { db: Db; logger: Logger; intervalMs?: number; stallAfterMs?: number }): Sealer {
  const { db, logger } = options;
  const intervalMs = options.intervalMs ?? 1_000;
  const watch = new SealWatch(options.stallAfterMs);
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let failing = false;
  const tick = () => {
    running = sealRound(db).then(
      (round) => {
        if (failing) logger.info({}, "audit sealer recovered");
        failing = false;
        reportWatch(logger, round.ok ? watch.sealed() : watch.missed(round.code));
      },
      (error: unknown) => {
        // A database outage fails every tick; say so once, not every second.
        if (!failing) logger.warn(describeError(error), "audit sealing failed; retrying");
        failing = true;
        reportWatch(logger, watch.missed("failed"));
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

function reportWatch(logger: Logger, notice: WatchNotice | null): void {
  if (notice?.code === "stalled") {
    const why = notice.reason === "locked" ? "another session has held the sealer's lock" : "every attempt has failed";
    logger.warn(
      { code: "audit_sealing_stalled", reason: notice.reason, stalledSeconds: Math.round(notice.sinceMs / 1000) },
      `audit rows are not being sealed: ${why} for longer than the grace audit verify allows`,
    );
  } else if (notice?.code === "recovered") {
    logger.info({ code: "audit_sealing_resumed", stalledSeconds: Math.round(notice.afterMs / 1000) }, "audit sealing resumed");
  }
}
