/** `countersign velocity void NAME`: the transaction did not move money; free its window room. */
import type { Db } from "../db/connect.js";
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
  const { voided } = await withDatabase((db) => voidCharges(db, name, new Date()));
  out(voided === 0 ? `${name}: no charges to void` : `${name}: voided ${voided} charge${voided === 1 ? "" : "s"}`);
  return 0;
}
