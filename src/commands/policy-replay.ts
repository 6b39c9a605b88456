/**
 * `countersign policy replay --policies DIR [--since 24h | --from T --to T] [--vault V]
 * [--format table|json|markdown] [--fail-on-change]`: what a candidate bundle would have decided
 * on recorded traffic. Exit 0, or 1 with --fail-on-change unless the replay shows that no decision
 * changes (replayVerdict: something was replayed, nothing changed, nothing evaluated was skipped);
 * 2 on bad usage.
 */
import { parseDuration } from "../duration.js";
import { readBundleFiles } from "../policy/bundle-files.js";
import { bundleFromFiles } from "../policy/load.js";
import type { PolicyBundle } from "../core/policy/types.js";
import { formatReport, type ReplayFormat } from "../replay/format.js";
import type { ReplayRange } from "../replay/recorded.js";
import type { SentBundle } from "../replay/replay-request.js";
import { replayVerdict, type ReplayReport } from "../replay/summary.js";

/** The replay itself: on the command's database, or through the running service (which needs the files). */
export type ReplayCandidate = (candidate: { bundle: PolicyBundle; read: SentBundle }, range: ReplayRange, now: Date) => Promise<ReplayReport>;

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
  const to = a.to !== undefined ? new Date(a.to) : a.now;
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

export async function policyReplay(args: PolicyReplayArgs, replayCandidate: ReplayCandidate, out: (line: string) => void): Promise<number> {
  const range = rangeOf(args);
  if (typeof range === "string") {
    out(range);
    return 2;
  }
  // Read once: the bundle replayed here and the files sent to the service are the same snapshot.
  const read = await readBundleFiles(args.policies);
  const loaded = bundleFromFiles(args.policies, read.files, read.problems);
  if (!loaded.ok) {
    out(loaded.error.message);
    return 2;
  }
  const report = await replayCandidate({ bundle: loaded.value, read: { directory: args.policies, files: read.files } }, range, args.now);
  out(formatReport(report, args.format));
  return args.failOnChange && !replayVerdict(report).changesNothing ? 1 : 0;
}
