/**
 * Decisions' database transactions as decide() runs them (src/decision/session.ts), without the
 * rest of the decision path: for suites about who shares a transaction with whom.
 */
import { randomUUID } from "node:crypto";
import type { DecisionRow } from "../../src/audit/decision-rows.js";
import type { Db } from "../../src/database.js";
import { withinDeadline } from "../../src/decision/deadline.js";
import { readArgs, writeArgs } from "../../src/decision/session-args.js";
import { withDecisionSession } from "../../src/decision/session.js";
import { allowDecision } from "./decision-rows.js";

export interface SessionMember {
  name: string;
  /** Its window group's key; a fresh one unless given. */
  key?: string;
  /** Its decision's budget (the decision timeout); 10 s unless given. */
  budgetMs?: number;
  /** Runs between the read and the write. */
  beforeWrite?: () => Promise<void>;
  /** Changes the row written. */
  row?: (row: DecisionRow) => DecisionRow;
}

export const newTransactionName = (): string => `vaults/v1/transactions/${randomUUID()}`;

/**
 * One decision's transaction: read (taking its name's and its group's locks), then write the row
 * and a charge. Whether it finished within its deadline, and how many times its work ran (a member
 * of a failed shared transaction runs again alone).
 */
export async function decideMember(db: Db, m: SessionMember): Promise<{ done: boolean; attempts: number }> {
  const key = m.key ?? `group-${randomUUID()}`;
  const row = (m.row ?? ((r) => r))(allowDecision(m.name));
  let attempts = 0;
  const result = await withinDeadline(m.budgetMs ?? 10_000, performance.now(), (deadline) =>
    withDecisionSession(db, deadline, async (session) => {
      attempts++;
      await session.read(readArgs(m.name, [key], [], row.decidedAt, true));
      await m.beforeWrite?.();
      await session.write(writeArgs({ decision: row, charges: [{ transferIndex: 0, key, amount: "1" }] }));
    }),
  );
  return { done: result.done, attempts };
}

/**
 * `members` deciding together behind a first decision that holds the only shared transaction of
 * `db` (opened with one connection) until they have all queued: they then share the next. `wait`,
 * if given, runs once they have queued and before the first one lets go.
 */
export async function afterAHeldOne(db: Db, members: SessionMember[], wait?: () => Promise<void>) {
  const first = holdingTheTransaction(db);
  await first.reading;
  // Each member's read queues it before decideMember first awaits anything: all have queued here.
  const settled = Promise.allSettled(members.map((m) => decideMember(db, m)));
  await wait?.();
  first.release();
  return { first: await first.decided, members: await settled };
}

/**
 * A decision that holds its transaction from its read until `release`: `reading` resolves once it
 * has read, in its transaction, so that those that come after queue behind it.
 */
export function holdingTheTransaction(db: Db) {
  let release!: () => void;
  let read!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const reading = new Promise<void>((resolve) => (read = resolve));
  const decided = decideMember(db, {
    name: newTransactionName(),
    beforeWrite: () => {
      read();
      return held;
    },
  });
  return { reading, release, decided };
}

/** What became of each member: committed, past its deadline, or failed. */
export function outcomes(settled: PromiseSettledResult<{ done: boolean }>[]): string[] {
  return settled.map((s) => (s.status === "fulfilled" ? (s.value.done ? "committed" : "deadline") : "failed"));
}
