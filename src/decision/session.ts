/**
 * A decision's database work in two round trips (migrations/sql/functions/decision-session.sql):
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
 * Several decisions waiting together share one such transaction (batches.ts): the same two round
 * trips carry `countersign_decision_read_batch` and `countersign_decision_write_batch` (the same
 * file) with every member's arguments, and the budget is the least any member has left. Every
 * transaction, shared or alone, first reserves its lock ids in the process's lock share
 * (src/db/lock-share.ts, sized by src/db/lock-budget.ts from the server's settings read at start).
 * The shared read never waits for a lock: a member whose lock is held elsewhere is sent alone, to
 * wait for it there. A decision alone sends exactly the statements above.
 *
 * A delivery refused before any write (a body its facts contradict) writes nothing; the
 * transaction still ends with a COMMIT. The read and the write are named statements: parsed and
 * planned once per connection, their arguments bound as parameters. Anything that fails rolls
 * back; a connection whose rollback fails is not queryable and the pool discards it.
 */
import type { Db } from "../database.js";
import { lockBudgetOf } from "../db/lock-budget.js";
import { LockShare } from "../db/lock-share.js";
import { pipelineConnections, withPipeline, type Pipeline, type Statement } from "../db/pipeline.js";
import { DecisionBatcher, MemberBusy, type Member, type MembersGuard } from "./batches.js";
import type { Deadline } from "./deadline.js";
import type { DecisionSession, ReadResult } from "./session-types.js";

const READ = { name: "countersign_decision_read_3", text: "select * from countersign_decision_read($1::jsonb, $2::float8)" };
const WRITE = { name: "countersign_decision_write_2", text: "select countersign_decision_write($1::jsonb, $2::float8)" };
/** Never waits for a lock: a member whose lock is held elsewhere comes back busy (countersign_decision_read_batch). */
const READ_BATCH = { name: "countersign_decision_read_batch_2", text: "select * from countersign_decision_read_batch($1::jsonb, $2::float8)" };
const WRITE_BATCH = { name: "countersign_decision_write_batch_1", text: "select countersign_decision_write_batch($1::jsonb, $2::float8)" };

/**
 * How many shared transactions a process keeps under way at once (batches.ts), at most one per
 * connection. Fewer than the pool's ten: a decision spends part of its transaction in the service
 * (evaluating), so some transactions wait on the service while others run, and what waits for a
 * free one joins the next; measured with `npm run bench` (README, "What a decision costs").
 */
const SHARED_TRANSACTIONS = 4;

const batchers = new WeakMap<Db, DecisionBatcher>();

/**
 * Runs `work` in one transaction on one connection, shared with other deliveries' when they wait
 * too (batches.ts). The transaction commits with the write, or, when `work` wrote nothing, after
 * it returns; either way only within the deadline of every decision in it.
 */
export function withDecisionSession<T>(db: Db, deadline: Deadline, work: (session: DecisionSession) => Promise<T>): Promise<T> {
  let batcher = batchers.get(db);
  if (!batcher) {
    const transact = (_members: readonly Member[], guard: MembersGuard) => withPipeline(db, (pipeline) => transactFor(pipeline, guard), guard);
    batcher = new DecisionBatcher(transact, Math.min(SHARED_TRANSACTIONS, pipelineConnections(db)), new LockShare(lockBudgetOf(db).lockIds));
    batchers.set(db, batcher);
  }
  return batcher.run(deadline, work);
}

/**
 * One transaction for the members still in time (MembersGuard.begin: one whose deadline passed while
 * it waited leaves): read, wait for each member's write (or none), write and commit.
 */
async function transactFor(pipeline: Pipeline, guard: MembersGuard): Promise<void> {
  const members = guard.begin();
  if (members.length === 0) return;
  guard.check();
  const budgetMs = String(Math.max(1, guard.remainingMs()));
  let open = true;
  try {
    const rows = await pipeline.send([{ text: "begin" }, readStatement(members, budgetMs)]);
    deliverReads(members, rows);
    const reports = await Promise.race([Promise.all(members.map((m) => m.report.promise)), guard.expiry]);
    const writes = reports.filter((w): w is Record<string, unknown> => w !== null);
    guard.check();
    await pipeline.send(writes.length === 0 ? [{ text: "commit" }] : [writeStatement(writes, budgetMs), { text: "commit" }]);
    open = false;
  } catch (error) {
    if (open) await rollback(pipeline);
    throw error;
  }
  for (const m of members) m.committed.resolve();
}

const readStatement = (members: readonly Member[], budgetMs: string) =>
  statementFor(
    READ,
    READ_BATCH,
    members.map((m) => m.args),
    budgetMs,
  );
const writeStatement = (writes: readonly Record<string, unknown>[], budgetMs: string) => statementFor(WRITE, WRITE_BATCH, writes, budgetMs);

/** One argument goes to the single statement, exactly as a decision alone sends it; several as one JSON array. */
function statementFor(single: Statement, batch: Statement, args: readonly unknown[], budgetMs: string): Statement {
  if (args.length === 1) return { ...single, values: [JSON.stringify(args[0]), budgetMs] };
  return { ...batch, values: [`[${args.map((a) => JSON.stringify(a)).join(",")}]`, budgetMs] };
}

/**
 * Each member's row: the only one alone, else the one tagged with its position. A member the
 * batch read found busy (a lock of its held elsewhere) read nothing: it goes alone (MemberBusy).
 */
function deliverReads(members: readonly Member[], rows: Record<string, unknown>[]): void {
  if (members.length === 1) {
    members[0]!.read.resolve(rows[0] as unknown as ReadResult);
    return;
  }
  const byOrd = new Map(rows.map((row) => [row.ord as number, row]));
  if (members.some((_m, i) => !byOrd.has(i))) throw new Error("the batch read returned no row for a member");
  members.forEach((m, i) => {
    const row = byOrd.get(i)!;
    if (row.busy === true) m.read.reject(new MemberBusy());
    else m.read.resolve(row as unknown as ReadResult);
  });
}

async function rollback(pipeline: Pipeline): Promise<void> {
  try {
    await pipeline.send([{ text: "rollback" }]);
  } catch {
    // The connection is broken (or destroyed at the deadline): not queryable, the pool drops it.
  }
}
