/**
 * `countersign velocity void NAME`: the transaction did not move money; free its window room.
 * Refused for a transaction the platform reported CONFIRMED (a stored event): the money moved, so
 * its charges keep counting, as the events endpoint keeps them (src/events/process.ts).
 */
import type { Db } from "../db/connect.js";
import { transactionConfirmed } from "../events/store.js";
import { voidCharges } from "../velocity/ledger.js";

const NAME = /^vaults\/[A-Za-z0-9_-]+\/transactions\/[A-Za-z0-9_-]+$/;

export async function velocityVoid(
  name: string,
  withDatabase: <T>(run: (db: Db) => Promise<T>) => Promise<T>,
  out: (line: string) => void,
): Promise<number> {
  if (!NAME.test(name)) {
    out(`not a transaction name: expected vaults/{vault_id}/transactions/{transaction_id}`);
    return 2;
  }
  const result = await withDatabase(async (db) => {
    if (await transactionConfirmed(db, name)) return "confirmed" as const;
    return voidCharges(db, name, new Date());
  });
  if (result === "confirmed") {
    out(`${name}: not voided: the platform reported it CONFIRMED (the money moved), so its charges keep counting`);
    return 1;
  }
  const { voided } = result;
  out(voided === 0 ? `${name}: no charges to void` : `${name}: voided ${voided} charge${voided === 1 ? "" : "s"}`);
  return 0;
}
