/**
 * `countersign policy replay`: every recorded first decision in a range, re-evaluated with a
 * candidate bundle on its recorded facts, inside one read-only transaction (repeatable read: one
 * consistent snapshot; read only: the database itself refuses any write). Streams the rows.
 */
import { sql } from "kysely";
import type { Db } from "../database.js";
import type { PolicyBundle } from "../core/policy/types.js";
import { chargeGaps, dimensionSet, windowsStartingShort, DOLLARS_GAP, dollarGap } from "./ledger-as-of.js";
import { recordedDecisions, PAGE_SIZE, type ReplayRange } from "./recorded.js";
import { replayPage } from "./replay-rows.js";
import { ReplayTally, type ReplayReport } from "./summary.js";

export interface ReplayOptions {
  pageSize?: number;
  listLimit?: number;
  /** When the candidate would take effect, for windowsStartingShort (default: the machine's clock). */
  now?: Date;
}

export async function replay(db: Db, candidate: PolicyBundle, range: ReplayRange, options: ReplayOptions = {}): Promise<ReplayReport> {
  return db.transaction().execute(async (trx) => {
    await sql`set transaction isolation level repeatable read, read only`.execute(trx);
    const sets = [...new Set(candidate.windows.map((w) => dimensionSet(w.groupBy)))];
    const coverage = await chargeGaps(trx, sets, range.to);
    if (candidate.windows.some((w) => w.measure === "usd")) coverage.set(DOLLARS_GAP, await dollarGap(trx, range.to));
    const tally = new ReplayTally(candidate, range, options.listLimit);
    for await (const page of recordedDecisions(trx, range, options.pageSize ?? PAGE_SIZE)) {
      for (const result of await replayPage(trx, candidate, page, coverage)) tally.add(result);
    }
    tally.windowsStartingShort(await windowsStartingShort(trx, candidate, options.now ?? new Date()));
    return tally.result();
  });
}
