/** The replay report as text for a terminal, JSON for tools, or Markdown for a pull-request comment. */
import type { WindowStartingShort } from "./ledger-as-of.js";
import { replayVerdict, type ChangedDecision, type ReplayReport } from "./summary.js";

export const FORMATS = ["table", "json", "markdown"] as const;
export type ReplayFormat = (typeof FORMATS)[number];

export function formatReport(report: ReplayReport, format: ReplayFormat): string {
  if (format === "json") return JSON.stringify(report, null, 2);
  return format === "markdown" ? markdown(report) : table(report);
}

function side(s: { decision: string; rules: string[] }): string {
  return s.rules.length > 0 ? `${s.decision} (${s.rules.join(", ")})` : `${s.decision} (default)`;
}

function scope(r: ReplayReport): string {
  return `${r.range.from} – ${r.range.to}${r.range.vault ? `, ${r.range.vault}` : ""}`;
}

function sorted(counts: Record<string, number>): [string, number][] {
  return Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** What merging the candidate now would do to a window whose groups the ledger never charged (ledger-as-of.ts). */
function startingShort(w: WindowStartingShort): string {
  return `window ${w.window} (grouped by [${w.groupBy.join(", ")}]) starts without the spending already done: transfers allowed up to ${w.unchargedUntil} were charged to no such group, so if this bundle took effect now each group would allow its whole limit again until ${w.completeFrom}`;
}

function table(r: ReplayReport): string {
  const lines = [
    `policy replay: candidate ${r.candidate.version} (${r.candidate.digest.slice(0, 12)}) on recorded decisions ${scope(r)}: ${replayVerdict(r).text}`,
    `  replayed        ${r.replayed}`,
    `  unchanged       ${r.unchanged}`,
    `  changed         ${r.changed}`,
    ...sorted(r.transitions).map(([t, n]) => `    ${t}  ${n}`),
    `  not replayable  ${r.notReplayable}`,
    ...sorted(r.notReplayableReasons).map(([why, n]) => `    ${why}  ${n}`),
  ];
  if (r.changed > 0) lines.push("changed, by deciding rule:", ...sorted(r.byRule).map(([rule, n]) => `  ${rule}  ${n}`));
  if (r.changes.length > 0) {
    lines.push("changed decisions:");
    for (const c of r.changes) lines.push(`  ${c.transactionName}  ${c.decidedAt}  ${c.amounts.join(" + ") || "(no transfers)"}  ${side(c.from)} -> ${side(c.to)}`);
    if (r.changesNotListed > 0) lines.push(`  … and ${r.changesNotListed} more`);
  }
  for (const n of r.notReplayableDecisions) lines.push(`not replayable: ${n.transactionName} (${n.decisionId}): ${n.reason}`);
  for (const w of r.windowsStartingShort) lines.push(`WARNING: ${startingShort(w)}`);
  return lines.join("\n");
}

const cell = (text: string): string => text.replaceAll("|", "\\|").replaceAll("\n", " ");

function changeRow(c: ChangedDecision): string {
  return `| \`${cell(c.transactionName)}\` | ${cell(c.amounts.join(" + ") || "(no transfers)")} | ${cell(side(c.from))} | **${cell(side(c.to))}** |`;
}

function markdown(r: ReplayReport): string {
  const shown = replayVerdict(r);
  const verdict = shown.changesNothing ? shown.text : `**${shown.text}**`;
  const lines = [
    `### Policy replay: ${cell(r.candidate.version)} — ${verdict}`,
    "",
    `Candidate \`${r.candidate.digest.slice(0, 12)}\` re-evaluated on the facts recorded with each decision, ${cell(scope(r))}.`,
    "",
    "| replayed | unchanged | changed | not replayable |",
    "|---:|---:|---:|---:|",
    `| ${r.replayed} | ${r.unchanged} | ${r.changed} | ${r.notReplayable} |`,
  ];
  if (r.changed > 0) {
    lines.push("", "| change | decisions |", "|---|---:|", ...sorted(r.transitions).map(([t, n]) => `| ${t} | ${n} |`));
    lines.push("", "| deciding rule | changed decisions |", "|---|---:|", ...sorted(r.byRule).map(([rule, n]) => `| \`${cell(rule)}\` | ${n} |`));
    lines.push("", "<details><summary>Changed decisions</summary>", "", "| transaction | amounts | recorded | candidate |", "|---|---|---|---|");
    lines.push(...r.changes.map(changeRow));
    if (r.changesNotListed > 0) lines.push("", `… and ${r.changesNotListed} more (run \`countersign policy replay --format json\` for the list).`);
    lines.push("", "</details>");
  }
  if (r.notReplayable > 0) {
    lines.push("", `**${r.notReplayable} decision${r.notReplayable === 1 ? " is" : "s are"} not replayable** (not evaluated; see why):`, "");
    lines.push(...sorted(r.notReplayableReasons).map(([why, n]) => `- ${cell(why)}: ${n}`));
  }
  if (r.windowsStartingShort.length > 0) {
    lines.push("", "**Velocity windows that would start from zero:**", "", ...r.windowsStartingShort.map((w) => `- ${cell(startingShort(w))}`));
  }
  return lines.join("\n");
}
