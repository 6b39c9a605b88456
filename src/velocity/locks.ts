/**
 * Serialising the groups a transaction touches: "read totals → evaluate → charge" must not
 * interleave with another transaction charging (or voiding) the same group, or two transfers could
 * each see room for themselves and both be approved past the limit.
 *
 * Why transaction-scoped advisory locks rather than SERIALIZABLE with retry:
 * - The conflict is known up front (the group keys) and is exactly what we lock: unrelated groups
 *   never wait on each other, and a hot wallet's deliveries queue instead of failing.
 * - SERIALIZABLE would abort one of two conflicting transactions at commit, so every caller would
 *   need a retry loop that re-runs evaluation, and on a hot wallet the retries themselves collide;
 *   its predicate locks on the bucket index also produce false conflicts between neighbouring groups.
 * - pg_advisory_xact_lock is held by the database session until COMMIT or ROLLBACK, so it works
 *   across any number of service processes on one database and cannot leak past a crash (the
 *   session ends, the lock goes). On PGlite (one connection) it is uncontended but still runs.
 * Locks are taken in ascending id order, deduplicated, in one statement: two transactions touching
 * the same groups then queue rather than deadlock.
 */
import { sql, type Kysely } from "kysely";
import type { Database } from "../database.js";
import { groupLockId } from "./group-hash.js";

/** Which group locks each open transaction holds, so charging can insist on them (see recordCharges). */
const held = new WeakMap<Kysely<Database>, Set<bigint>>();

export async function lockWindowGroups(trx: Kysely<Database>, keys: readonly string[]): Promise<void> {
  requireTransaction(trx, "lockWindowGroups");
  const ids = [...new Set(keys.map(groupLockId))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (ids.length === 0) return;
  // unnest yields the array in order and the function runs once per row as it is produced: the
  // locks are taken one after another in the sorted order.
  await sql`select pg_advisory_xact_lock(id) from unnest(${ids.map(String)}::int8[]) as id`.execute(trx);
  const set = held.get(trx) ?? new Set<bigint>();
  for (const id of ids) set.add(id);
  held.set(trx, set);
}

/** Throws unless lockWindowGroups took every one of these groups' locks in this transaction. */
export function assertGroupsLocked(trx: Kysely<Database>, keys: readonly string[]): void {
  const set = held.get(trx);
  const missing = keys.filter((key) => !set?.has(groupLockId(key)));
  if (missing.length > 0) {
    throw new Error(`velocity charge without its group lock (${missing.length} group(s)): call lockWindowGroups first`);
  }
}

/** An advisory xact lock taken outside a transaction is released at once: refuse to pretend. */
export function requireTransaction(db: Kysely<Database>, what: string): void {
  if (!db.isTransaction) throw new Error(`${what} must run inside a database transaction`);
}
