/**
 * `countersign velocity prune`: what the service's background pruner does, once, now: deletes the
 * velocity buckets no window of the bundles in force (COUNTERSIGN_POLICIES, and
 * COUNTERSIGN_SHADOW_POLICIES when set) can read, and the charges past COUNTERSIGN_LEDGER_RETENTION.
 * The database keeps what a window claimed by a serving process reads, whatever this process's
 * bundle and retention (src/velocity/claims.ts); the command says so when it did.
 */
import type { Config } from "../config.js";
import type { Db } from "../database.js";
import { loadBundle } from "../policy/load.js";
import { formatDuration } from "../duration.js";
import { pruneHorizon, pruneLedger, type KeptForWindow } from "../velocity/prune.js";

export async function velocityPrune(config: Readonly<Config>, withDatabase: <T>(run: (db: Db) => Promise<T>) => Promise<T>, out: (line: string) => void): Promise<number> {
  let longest = 0;
  for (const dir of [config.policiesDir, config.shadowPoliciesDir]) {
    if (dir === undefined) continue;
    // Without the bundle, the windows in force are unknown: prune nothing rather than guess.
    const loaded = await loadBundle(dir, { root: config.policiesRoot });
    if (!loaded.ok) {
      out(`cannot read the policy bundle, nothing pruned: ${loaded.error.message}`);
      return 1;
    }
    for (const w of loaded.value.windows) longest = Math.max(longest, w.durationSeconds);
  }
  const horizon = pruneHorizon(new Date(), longest, config.ledgerRetentionSeconds);
  const result = await withDatabase((db) => pruneLedger(db, horizon));
  if (!result.elected) {
    out("another process is pruning the ledger; nothing done");
    return 0;
  }
  out(
    `pruned ${result.pruned} rows: buckets finer than a day before ${horizon.fineBefore.toISOString()}, charges and day buckets before ${(result.kept?.chargesKeptSince ?? horizon.chargesBefore).toISOString()}`,
  );
  if (result.kept && result.kept.chargesKeptSince < horizon.chargesBefore) out(keptMessage(result.kept, horizon.chargesBefore));
  return 0;
}

function keptMessage(kept: KeptForWindow, asked: Date): string {
  return (
    `kept the charges and day buckets from ${asked.toISOString()} to ${kept.chargesKeptSince.toISOString()}: ` +
    `a window in force reads them (a serving process claims a ${formatDuration(kept.windowSeconds)} window; kept for it plus a day)`
  );
}
