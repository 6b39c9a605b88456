/**
 * How many advisory lock ids this process's database transactions may hold at once, all of them
 * together (its lock budget), derived from the server's own settings, read once at start
 * (service.ts). src/db/lock-share.ts keeps the process to it.
 *
 * Every session of a Postgres cluster shares one lock table, sized at start to about
 * `max_locks_per_transaction` × (`max_connections` + `max_prepared_transactions`) entries: that
 * many per connection the server may have. A transaction asks for a slot per advisory lock (a
 * decision: one for its name, one per window group) and for each relation lock beyond the few a
 * backend keeps on its own. When the table is full, *any* session's next lock fails with "out of
 * shared memory": another replica's decision, the audit sealer, autovacuum, an unrelated client.
 *
 * So the process keeps to the slots its own connections were given: pool size ×
 * `max_locks_per_transaction`, less RELATION_LOCK_RESERVE per connection for their relation locks,
 * across all its transactions at once. A single decision may then hold more than one connection's
 * share (a batch over many window groups), while the others of the process wait for room. Every
 * other session keeps its share untouched: the process's connections are sessions of their own,
 * counted in `max_connections`, and together never hold more than the slots sized for them. This
 * holds across replicas when the sum of their pools stays within `max_connections` (a process
 * whose pool could not all connect would otherwise hold the share of connections it does not
 * have).
 *
 * PGlite (embedded) is one connection in one process: no other session shares its table, so its
 * budget is the whole table.
 */
import { sql } from "kysely";
import type { AnyDb } from "./any-db.js";
import { pipelineConnections } from "./pipeline.js";

/**
 * Slots a decision's transaction uses besides its advisory locks: its relation locks beyond the
 * backend's fast-path slots (about 21 for a decision's read and write on Postgres 15, measured with
 * pg_locks; a shared transaction's members lock the same relations, so they cost it once), and its
 * transaction id. Kept above the measure so that a schema growing by a table or an index does not
 * overrun the share. One per connection: a connection runs one transaction at a time.
 */
export const RELATION_LOCK_RESERVE = 32;

export interface LockSettings {
  maxLocksPerTransaction: number;
  maxConnections: number;
  maxPreparedTransactions: number;
}

export interface LockBudget {
  settings: LockSettings;
  /** Entries in the server's lock table (approximately: background processes add a few shares). */
  lockTable: number;
  /** The process's pool: the connections whose shares the budget is. */
  connections: number;
  /** Lock ids (advisory locks) the process's transactions may hold at once, together. */
  lockIds: number;
}

/** Postgres's defaults: the budget of a database whose settings were not read (never the service's). */
export const DEFAULT_LOCK_SETTINGS: LockSettings = { maxLocksPerTransaction: 64, maxConnections: 100, maxPreparedTransactions: 0 };

export function lockBudget(settings: LockSettings, kind: "postgres" | "pglite", connections: number): LockBudget {
  const lockTable = settings.maxLocksPerTransaction * (settings.maxConnections + settings.maxPreparedTransactions);
  const lockIds = kind === "pglite" ? lockTable - RELATION_LOCK_RESERVE : connections * (settings.maxLocksPerTransaction - RELATION_LOCK_RESERVE);
  // At least the name's lock: a decision that evaluates nothing still takes it.
  return { settings, lockTable, connections, lockIds: Math.max(1, lockIds) };
}

/**
 * The `max_locks_per_transaction` a server needs for a decision alone to fit the budget when it
 * touches `maxWindowGroups` groups (COUNTERSIGN_MAX_WINDOW_GROUPS): one lock per group and one for
 * the transaction's name, spread over the pool's connections, and each connection's reserve.
 * PGlite's one connection has the whole table.
 */
export function neededMaxLocksPerTransaction(maxWindowGroups: number, budget: LockBudget, kind: "postgres" | "pglite"): number {
  const lockIds = maxWindowGroups + 1;
  if (kind === "postgres") return Math.ceil(lockIds / budget.connections) + RELATION_LOCK_RESERVE;
  const { maxConnections, maxPreparedTransactions } = budget.settings;
  return Math.ceil((lockIds + RELATION_LOCK_RESERVE) / (maxConnections + maxPreparedTransactions));
}

/** Reads the settings the lock table is sized from (each is fixed until the server restarts). */
export async function readLockSettings(db: AnyDb): Promise<LockSettings> {
  const { rows } = await sql<{ l: number; c: number; p: number }>`
    select current_setting('max_locks_per_transaction')::int as l, current_setting('max_connections')::int as c,
      current_setting('max_prepared_transactions')::int as p`.execute(db);
  const row = rows[0]!;
  return { maxLocksPerTransaction: row.l, maxConnections: row.c, maxPreparedTransactions: row.p };
}

const budgets = new WeakMap<AnyDb, LockBudget>();

/** Reads `db`'s settings and makes its lock budget the one every decision on it keeps to. */
export async function establishLockBudget(db: AnyDb, kind: "postgres" | "pglite"): Promise<LockBudget> {
  const budget = lockBudget(await readLockSettings(db), kind, pipelineConnections(db));
  budgets.set(db, budget);
  return budget;
}

/** The budget establishLockBudget read for `db`; Postgres's defaults' where none was (tests deciding without a service). */
export function lockBudgetOf(db: AnyDb): LockBudget {
  return budgets.get(db) ?? lockBudget(DEFAULT_LOCK_SETTINGS, "postgres", pipelineConnections(db));
}

/**
 * Why a decision that would take `lockIds` locks cannot be evaluated here, or null when they fit
 * the budget. It defers rather than denies: the cause is the server's setting, which an operator
 * can raise, and the co-signer asks again; it takes no lock but its name's meanwhile.
 */
export function lockBudgetReason(lockIds: number, budget: LockBudget): string | null {
  if (lockIds <= budget.lockIds) return null;
  return `too many locks for this process's share of the database's lock table (${lockIds} > ${budget.lockIds}): the database's max_locks_per_transaction is too low for this transaction's velocity window groups`;
}
