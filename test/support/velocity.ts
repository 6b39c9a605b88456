/**
 * Shared by the velocity suites: the two backends, an allow-decision row for charges to refer
 * to, and "charge like the recording transaction does" (lock → decision → charges, one transaction).
 */
import { randomUUID } from "node:crypto";
import type { Db } from "../../src/database.js";
import { lockWindowGroups, recordCharges, type ChargeInput } from "../../src/velocity/ledger.js";

export { backends, type Backend } from "./backends.js";
import { decisionRow } from "./decision-rows.js";

export async function insertAllowDecision(db: Db, transactionName: string, at: Date): Promise<string> {
  const row = decisionRow({ decided_at: at, transaction_name: transactionName });
  await db.insertInto("decisions").values(row).execute();
  return row.id;
}

export interface SimpleCharge {
  key: string;
  amount: string | null;
  /** Dollars at the decision's price; none when omitted. */
  usd?: string | null;
  at: Date;
  transferIndex?: number;
}

let counter = 0;

/** Records one allowed transaction charging the given (transfer, group) pairs; returns its name. */
export async function chargeTransaction(db: Db, charges: readonly SimpleCharge[], name?: string): Promise<string> {
  const transactionName = name ?? `vaults/v1/transactions/t${++counter}-${randomUUID()}`;
  const at = charges[0]?.at ?? new Date();
  await db.transaction().execute(async (trx) => {
    await lockWindowGroups(
      trx,
      charges.map((c) => c.key),
    );
    const decisionId = await insertAllowDecision(trx, transactionName, at);
    const inputs: ChargeInput[] = charges.map((c) => ({
      decisionId,
      transactionName,
      vault: "vaults/v1",
      transferIndex: c.transferIndex ?? 0,
      key: c.key,
      amount: c.amount,
      usd: c.usd ?? null,
      chargedAt: c.at,
    }));
    await recordCharges(trx, inputs);
  });
  return transactionName;
}

export function secondsBefore(now: Date, seconds: number): Date {
  return new Date(now.getTime() - seconds * 1000);
}
