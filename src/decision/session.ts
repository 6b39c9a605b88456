/**
 * A decision's database work in three round trips (migration 20261122T1300_decision_functions):
 *
 *   1. `begin; set_config(timeouts); select countersign_decision_read(…)` — one simple-protocol
 *      message: the transaction starts, takes the name's lock, reads the final decision or the
 *      review, the reported failure, and (when evaluation may follow) takes the window groups'
 *      locks and reads their totals;
 *   2. `select countersign_decision_write($1)` — the decision row, review, charges and buckets;
 *   3. `commit`, sent only after the deadline was checked (deadline.ts).
 *
 * Anything that fails rolls back; a connection whose rollback fails is not queryable and the pool
 * discards it. The read's arguments are embedded as one escaped literal (a simple-protocol message
 * carries no parameters); they are names, keys and times countersign computed, and the literal is
 * escaped the way pg's own escapeLiteral does.
 */
import { sql, type Kysely } from "kysely";
import type { Db } from "../db/connect.js";
import type { Database } from "../db/schema.js";
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

/** Runs `work` in one transaction on one connection, committing after it returns (deadline permitting). */
export function withDecisionSession<T>(db: Db, deadline: Deadline, work: (session: DecisionSession) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    let open = false;
    const session: DecisionSession = {
      read: async (args) => {
        deadline.check();
        const ms = String(Math.max(1, deadline.remainingMs()));
        open = true;
        const text =
          `begin; select set_config('statement_timeout', '${ms}', true), set_config('lock_timeout', '${ms}', true), ` +
          `set_config('idle_in_transaction_session_timeout', '${ms}', true); ` +
          `select countersign_decision_read(${literal(JSON.stringify(args))}::jsonb) as read`;
        const { rows } = await sql.raw<{ read: ReadResult }>(text).execute(conn);
        return rows[0]!.read;
      },
      write: async (args) => {
        await sql`select countersign_decision_write(${JSON.stringify(args)}::jsonb)`.execute(conn);
      },
    };
    try {
      const value = await work(session);
      deadline.check();
      await sql.raw("commit").execute(conn);
      open = false;
      return value;
    } catch (error) {
      if (open) await rollback(conn);
      throw error;
    }
  });
}

async function rollback(conn: Kysely<Database>): Promise<void> {
  try {
    await sql.raw("rollback").execute(conn);
  } catch {
    // The connection is broken (or destroyed at the deadline): not queryable, the pool drops it.
  }
}

/** A Postgres string literal of `text` (pg's escapeLiteral: quotes doubled, backslashes as E'…'). */
export function literal(text: string): string {
  const quoted = text.replace(/'/g, "''");
  return text.includes("\\") ? ` E'${quoted.replace(/\\/g, "\\\\")}'` : `'${quoted}'`;
}
