/**
 * A decision's database work in two round trips (migrations 20261122T1300_decision_functions,
 * 20261122T1400_decision_in_time, 20261124T0900_decision_statement_costs):
 *
 *   1. `begin`, `select countersign_decision_read($1, budget)` — pipelined, sent together
 *      (src/db/pipeline.ts): the transaction starts, sets its timeouts from the budget, takes the
 *      name's lock, reads the final decision or the review, the reported failure, and (when
 *      evaluation may follow) takes the window groups' locks and reads their totals;
 *   2. `select countersign_decision_write($1, budget)` — the decision row, review, charges and
 *      buckets, then the server's own deadline check — and `commit`, pipelined: the server commits
 *      only if the write finished within the budget the service had left at `begin`; otherwise
 *      the check fails, the transaction is aborted and the COMMIT behind it rolls back.
 *
 * A delivery refused before any write (a body its facts contradict) ends with a COMMIT of its own,
 * which writes nothing. The read and the write are named statements: parsed and planned once per
 * connection, their arguments bound as parameters. Anything that fails rolls back; a connection
 * whose rollback fails is not queryable and the pool discards it.
 */
import type { Db } from "../db/connect.js";
import { withPipeline, type Pipeline } from "../db/pipeline.js";
import type { Deadline } from "./deadline.js";

/** The pieces of each window query (by its index, `ord`): bucket ranges and the exact edge. */
export interface WindowPiecesJson {
  /** Each query's group hash, hex, by ord. */
  hashes: string[];
  buckets: { ord: number; width: number; from_at: string; until_at: string }[];
  edges: { ord: number; after_at: string; until_at: string }[];
}

export interface ReadArgs extends WindowPiecesJson {
  name: string;
  /** A Postgres text[] literal: the transaction states that end it without moving money. */
  failedStates: string;
  /** Whether evaluation may follow: take the group locks and read the totals. */
  evaluate: boolean;
  /** A Postgres int8[] literal: the group lock ids, ascending. */
  locks: string;
}

/** The read's columns; null where it found nothing or did not look. */
export interface ReadResult {
  final: Record<string, unknown> | null;
  review: Record<string, unknown> | null;
  actions: Record<string, unknown>[] | null;
  failure: { id: string; new_state: string } | null;
  /** The sum of each piece read, in three arrays in step: its query's ord (several per window query), amount, count. */
  total_ords: number[] | null;
  total_amounts: string[] | null;
  total_counts: string[] | null;
}

export interface DecisionSession {
  read(args: ReadArgs): Promise<ReadResult>;
  write(args: Record<string, unknown>): Promise<void>;
}

const READ = { name: "countersign_decision_read_2", text: "select * from countersign_decision_read($1::jsonb, $2::float8)" };
const WRITE = { name: "countersign_decision_write_2", text: "select countersign_decision_write($1::jsonb, $2::float8)" };

/**
 * Runs `work` in one transaction on one connection. The transaction commits with the write, or,
 * when `work` wrote nothing, after it returns; either way only within the deadline.
 */
export function withDecisionSession<T>(db: Db, deadline: Deadline, work: (session: DecisionSession) => Promise<T>): Promise<T> {
  return withPipeline(db, async (pipeline) => {
    let open = false;
    let budgetMs = "";
    const session: DecisionSession = {
      read: async (args) => {
        deadline.check();
        budgetMs = String(Math.max(1, deadline.remainingMs()));
        open = true;
        const rows = await pipeline.send([{ text: "begin" }, { ...READ, values: [JSON.stringify(args), budgetMs] }]);
        return rows[0] as unknown as ReadResult;
      },
      write: async (args) => {
        deadline.check();
        await pipeline.send([{ ...WRITE, values: [JSON.stringify(args), budgetMs] }, { text: "commit" }]);
        open = false;
      },
    };
    try {
      const value = await work(session);
      if (open) {
        deadline.check();
        await pipeline.send([{ text: "commit" }]);
        open = false;
      }
      return value;
    } catch (error) {
      if (open) await rollback(pipeline);
      throw error;
    }
  }, deadline);
}

async function rollback(pipeline: Pipeline): Promise<void> {
  try {
    await pipeline.send([{ text: "rollback" }]);
  } catch {
    // The connection is broken (or destroyed at the deadline): not queryable, the pool drops it.
  }
}
