/**
 * A window may not outlast the ledger's retention (COUNTERSIGN_LEDGER_RETENTION). Every replica
 * prunes charges and day buckets past the retention, or past its own bundle's longest window when
 * that is longer (velocity/prune.ts). A replica whose bundle has a window longer than the retention
 * would read that window's oldest part after another replica, whose bundle lacks it, pruned it:
 * the window would read too little and let more leave than its limit. So such a bundle is refused
 * at boot and at reload, with the setting to raise named. (Once served, a window is claimed in the
 * database, src/velocity/claims.ts, and no process's pruner deletes what it reads; this check covers
 * this process's own pruning, including what it pruned before the window was first claimed.)
 */
import { formatDuration } from "../duration.js";
import type { PolicyBundle } from "../core/policy/types.js";

/** Why the bundle is refused, or null when every window fits the retention (or none is given). */
export function windowPastRetention(bundle: Pick<PolicyBundle, "windows">, retentionSeconds: number | undefined): string | null {
  if (retentionSeconds === undefined) return null;
  const tooLong = bundle.windows.filter((w) => w.durationSeconds > retentionSeconds);
  if (tooLong.length === 0) return null;
  const list = tooLong.map((w) => `"${w.name}" (${w.duration})`).join(", ");
  return (
    `policy bundle has windows longer than the ledger's retention (COUNTERSIGN_LEDGER_RETENTION, ${formatDuration(retentionSeconds)}): ${list}; ` +
    `charges past the retention are pruned, so such a window would read too little. Raise COUNTERSIGN_LEDGER_RETENTION to at least the longest window`
  );
}
