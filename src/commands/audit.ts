/** `countersign audit verify [--schema S] [--from T --checkpoint POSITION:HASH]` and `countersign audit checkpoint [--json]`. */
import { formatCheckpoint, latestCheckpoint, parseCheckpoint, type SealedCheckpoint } from "../audit/checkpoint.js";
import { VerifyRefused, type Break, type Checkpoint } from "../audit/verify.js";
import type { VerifyTrail } from "../audit/verify-outcome.js";
import type { WithDatabase } from "./with-database.js";

export interface AuditVerifyOptions {
  from?: string | undefined;
  checkpoint?: string | undefined;
  schema?: string | undefined;
}

export async function auditVerify(values: AuditVerifyOptions, verify: VerifyTrail, out: (line: string) => void): Promise<number> {
  const from = values.from === undefined ? undefined : new Date(values.from);
  if (from && Number.isNaN(from.getTime())) {
    out("countersign audit verify: --from must be a time such as 2026-11-01 or 2026-11-01T00:00:00Z");
    return 2;
  }
  let checkpoint: Checkpoint | undefined;
  // Only an anchor says a gone row was archived (it stands for the entries' row_time): --from alone would call every archived row missing.
  if (from && values.checkpoint === undefined) {
    out("countersign audit verify: --from needs --checkpoint POSITION:HASH, the anchor taken before archiving");
    return 2;
  }
  if (values.checkpoint !== undefined) {
    const parsed = parseCheckpoint(values.checkpoint);
    if (!parsed) {
      out("countersign audit verify: --checkpoint must be POSITION:HASH as `countersign audit checkpoint` prints it");
      return 2;
    }
    checkpoint = parsed;
  }
  const options = { ...(from ? { from } : {}), ...(checkpoint ? { checkpoint } : {}), ...(values.schema ? { schema: values.schema } : {}) };
  const outcome = await verify(options);
  if ("refused" in outcome) {
    out(`countersign audit verify: refused (${outcome.refused.code}): ${outcome.refused.message}`);
    return 3;
  }
  const { report } = outcome;
  const span = report.lastPosition >= report.firstPosition ? `positions ${report.firstPosition}..${report.lastPosition}` : "no sealed rows";
  if (report.ok) {
    out(`audit trail intact: ${span}${report.lastHash ? `, last hash ${report.lastHash}` : ""}`);
    out(`schema verified: ${report.schema}`);
    if (report.pending > 0) out(`${report.pending} row${report.pending === 1 ? "" : "s"} written since the last seal, not sealed yet`);
    return 0;
  }
  const [first] = report.breaks;
  out(`audit trail BROKEN: ${report.breakCount} break${report.breakCount === 1 ? "" : "s"} (${span})`);
  out(`schema verified: ${report.schema}`);
  if (first) out(`first break: ${describe(first)}`);
  for (const b of report.breaks.slice(1)) out(`  also: ${describe(b)}`);
  if (report.breakCount > report.breaks.length) out(`  … and ${report.breakCount - report.breaks.length} more`);
  return 1;
}

function describe(b: Break): string {
  const where = b.position === null ? "" : ` at position ${b.position}`;
  const row = b.rowKey ? ` ${b.source} ${b.rowKey}` : ` ${b.source}`;
  return `${b.kind}${row}${where}: ${b.detail}`;
}

export async function auditCheckpoint({ json }: { json: boolean }, withDatabase: WithDatabase, out: (line: string) => void): Promise<number> {
  let checkpoint: SealedCheckpoint | null;
  try {
    checkpoint = await withDatabase((db) => latestCheckpoint(db));
  } catch (error) {
    if (!(error instanceof VerifyRefused)) throw error;
    out(`countersign audit checkpoint: refused (${error.code}): ${error.message}`);
    return 3;
  }
  if (!checkpoint) {
    out(json ? JSON.stringify({ position: 0, hash: null }) : "nothing sealed yet");
    return 0;
  }
  const anchor = formatCheckpoint(checkpoint);
  if (json) {
    out(JSON.stringify({ ...checkpoint, sealedAt: checkpoint.sealedAt.toISOString(), anchor }));
    return 0;
  }
  out(`position ${checkpoint.position}`);
  out(`hash ${checkpoint.hash}`);
  out(`sealed_at ${checkpoint.sealedAt.toISOString()}`);
  out(
    `rows ${Object.entries(checkpoint.rows)
      .map(([s, n]) => `${s}=${n}`)
      .join(" ")}`,
  );
  out(`anchor ${anchor}`);
  return 0;
}
