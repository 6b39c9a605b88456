/**
 * Monthly partitions of `decisions` are created ahead of time: by the migration, and by the
 * service at start and once a day (`decisions_ensure_partitions`, which runs as the table's owner).
 * A month without its partition is not an outage: its rows land in `decisions_default`.
 */
import { sql } from "kysely";
import type { Db } from "../database.js";
import { describeError, type Logger } from "../log.js";

export const MONTHS_AHEAD = 3;
const DAY_MS = 24 * 60 * 60 * 1000;

export async function ensureDecisionPartitions(db: Db, monthsAhead = MONTHS_AHEAD): Promise<number> {
  const { rows } = await sql<{ created: number }>`select decisions_ensure_partitions(${monthsAhead}::int) as created`.execute(db);
  return Number(rows[0]?.created ?? 0);
}

/** Runs now and daily; returns a stop function. */
export function keepDecisionPartitions(db: Db, logger: Logger): () => void {
  const run = () =>
    ensureDecisionPartitions(db).then(
      (created) => {
        if (created > 0) logger.info({ created }, "decision partitions created");
      },
      (error: unknown) => logger.warn(describeError(error), "decision partitions not created; retrying tomorrow"),
    );
  void run();
  const timer = setInterval(() => void run(), DAY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
