/**
 * How many locks one of the service's database transactions may hold (its lock budget), derived
 * from the server's own settings, read once at start (service.ts).
 *
 * Every session of a Postgres cluster shares one lock table, sized at start to about
 * `max_locks_per_transaction` × (`max_connections` + `max_prepared_transactions`) entries. A
 * transaction asks for a slot per advisory lock (a decision: one for its name, one per window
 * group) and for each relation lock beyond the few a backend keeps on its own. When the table is
 * full, *any* session's next lock fails with "out of shared memory": another replica's decision,
 * the audit sealer, autovacuum, an unrelated client. So a transaction keeps to its fair share:
 * the table divided by the connections and prepared transactions it is sized for, which is
 * `max_locks_per_transaction` itself. Within that share, every connection of the cluster can hold
 * its locks at once, whatever the number of replicas and the size of their pools: no decision
 * takes a slot another session was given.
 *
 * PGlite (embedded) is one connection in one process: no other session shares its table, so its
 * budget is the whole table.
 */
import { sql } from "kysely";
import type { Db } from "./connect.js";

/**
 * Slots a decision's transaction uses besides its advisory locks: its relation locks beyond the
 * backend's fast-path slots (about 21 for a decision's read and write on Postgres 15, measured with
 * pg_locks; a shared transaction's members lock the same relations, so they cost it once), and its
 * transaction id. Kept above the measure so that a schema growing by a table or an index does not
 * overrun the share.
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
  /** Lock ids (advisory locks) one transaction may hold: its share, less RELATION_LOCK_RESERVE. */
  lockIds: number;
}

/** Postgres's defaults: the budget of a database whose settings were not read (never the service's). */
export const DEFAULT_LOCK_SETTINGS: LockSettings = { maxLocksPerTransaction: 64, maxConnections: 100, maxPreparedTransactions: 0 };

export function lockBudget(settings: LockSettings, kind: "postgres" | "pglite"): LockBudget {
  const holders = settings.maxConnections + settings.maxPreparedTransactions;
  const lockTable = settings.maxLocksPerTransaction * holders;
  const share = kind === "pglite" ? lockTable : Math.floor(lockTable / holders);
  // At least the name's lock: a decision that evaluates nothing still takes it.
  return { settings, lockTable, lockIds: Math.max(1, share - RELATION_LOCK_RESERVE) };
}

/**
 * The `max_locks_per_transaction` a server needs for a decision alone to fit its budget when it
 * touches `maxWindowGroups` groups (COUNTERSIGN_MAX_WINDOW_GROUPS): one lock per group, one for the
 * transaction's name, and the reserve. On Postgres, pool size and replicas do not change it: each
 * connection keeps within its own share. PGlite's one connection has the whole table.
 */
export function neededMaxLocksPerTransaction(maxWindowGroups: number, budget: LockBudget, kind: "postgres" | "pglite"): number {
  const perTransaction = maxWindowGroups + 1 + RELATION_LOCK_RESERVE;
  if (kind === "postgres") return perTransaction;
  const { maxConnections, maxPreparedTransactions } = budget.settings;
  return Math.ceil(perTransaction / (maxConnections + maxPreparedTransactions));
}

/** Reads the settings the lock table is sized from (each is fixed until the server restarts). */
export async function readLockSettings(db: Db): Promise<LockSettings> {
  const { rows } = await sql<{ l: number; c: number; p: number }>`
    select current_setting('max_locks_per_transaction')::int as l, current_setting('max_connections')::int as c,
      current_setting('max_prepared_transactions')::int as p`.execute(db);
  const row = rows[0]!;
  return { maxLocksPerTransaction: row.l, maxConnections: row.c, maxPreparedTransactions: row.p };
}

const budgets = new WeakMap<Db, LockBudget>();

/** Reads `db`'s settings and makes its lock budget the one every decision on it keeps to. */
export async function establishLockBudget(db: Db, kind: "postgres" | "pglite"): Promise<LockBudget> {
  const budget = lockBudget(await readLockSettings(db), kind);
  budgets.set(db, budget);
  return budget;
}

/** The budget establishLockBudget read for `db`; Postgres's defaults' where none was (tests deciding without a service). */
export function lockBudgetOf(db: Db): LockBudget {
  return budgets.get(db) ?? lockBudget(DEFAULT_LOCK_SETTINGS, "postgres");
}

/**
 * Why a decision that would take `lockIds` locks cannot be evaluated here, or null when they fit
 * the budget. It defers rather than denies: the cause is the server's setting, which an operator
 * can raise, and the co-signer asks again; it takes no lock but its name's meanwhile.
 */
export function lockBudgetReason(lockIds: number, budget: LockBudget): string | null {
  if (lockIds <= budget.lockIds) return null;
  return `too many locks for one database transaction (${lockIds} > ${budget.lockIds}): the database's max_locks_per_transaction is too low for this transaction's velocity window groups`;
}
