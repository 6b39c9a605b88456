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

export interface WindowPiecesJson {
  buckets: { ord: number; hash: string; width: number; from_at: string; until_at: string }[];
  edges: { ord: number; hash: string; after_at: string; until_at: string }[];
}

export interface ReadArgs extends WindowPiecesJson {
  name: string;
  failedStates: readonly string[];
  /** Whether evaluation may follow: take the group locks and read the totals. */
  evaluate: boolean;
  /** Group lock ids, ascending, as decimal strings. */
  locks: string[];
}

export interface ReadResult {
  final?: Record<string, unknown>;
  review?: Record<string, unknown> | null;
  actions?: Record<string, unknown>[];
  failure?: { id: string; new_state: string } | null;
  totals?: { ord: number; amount: string; count: string }[] | null;
}

export interface DecisionSession {
  read(args: ReadArgs): Promise<ReadResult>;
  write(args: Record<string, unknown>): Promise<void>;
}

const READ = { name: "countersign_decision_read_2", text: "select countersign_decision_read($1::jsonb, $2::float8) as read" };
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
        return rows[0]!.read as ReadResult;
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
