/**
 * `countersign policy replay --policies DIR [--since 24h | --from T --to T] [--vault V]
 * [--format table|json|markdown] [--fail-on-change]`: what a candidate bundle would have decided
 * on recorded traffic. Exit 0, or 1 with --fail-on-change unless the replay shows that no decision
 * changes (replayVerdict: something was replayed, nothing changed, nothing evaluated was skipped);
 * 2 on bad usage.
 */
import { parseDuration } from "../duration.js";
import type { Db } from "../db/connect.js";
import { loadBundle } from "../policy/load.js";
import { formatReport, type ReplayFormat } from "../replay/format.js";
import { replay } from "../replay/replay.js";
import { replayVerdict } from "../replay/summary.js";

export interface PolicyReplayArgs {
  policies: string;
  since?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  vault?: string | undefined;
  format: ReplayFormat;
  failOnChange: boolean;
  now: Date;
}

type Range = { from: Date; to: Date; vault?: string };

function rangeOf(a: PolicyReplayArgs): Range | string {
  if (a.since !== undefined && (a.from !== undefined || a.to !== undefined)) return "give --since or --from/--to, not both";
  let from: Date;
  let to = a.to !== undefined ? new Date(a.to) : a.now;
  if (a.from !== undefined) from = new Date(a.from);
  else {
    const seconds = parseDuration(a.since ?? "24h");
    if (seconds === null || seconds <= 0) return `--since must be a duration such as 24h or 7d (got "${a.since}")`;
    from = new Date(to.getTime() - seconds * 1000);
  }
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) return "--from and --to must be RFC 3339 times";
  if (from >= to) return "--from must be before --to";
  const vault = a.vault === undefined ? undefined : a.vault.startsWith("vaults/") ? a.vault : `vaults/${a.vault}`;
  if (vault !== undefined && !/^vaults\/[A-Za-z0-9_-]+$/.test(vault)) return `--vault must be a vault id (got "${a.vault}")`;
  return { from, to, ...(vault ? { vault } : {}) };
}

export async function policyReplay(args: PolicyReplayArgs, withDatabase: <T>(run: (db: Db) => Promise<T>) => Promise<T>, out: (line: string) => void): Promise<number> {
  const range = rangeOf(args);
  if (typeof range === "string") {
    out(range);
    return 2;
  }
  const loaded = await loadBundle(args.policies);
  if (!loaded.ok) {
    out(loaded.error.message);
    return 2;
  }
  const report = await withDatabase((db) => replay(db, loaded.value, range, { now: args.now }));
  out(formatReport(report, args.format));
  return args.failOnChange && !replayVerdict(report).changesNothing ? 1 : 0;
}
