/**
 * `policy replay` through the running service (`POST /v1/policy/replay`): the candidate bundle's
 * files live on the CLI's machine, so the CLI sends the files it read (base64, within the service's
 * body limit) and the service builds the bundle from them with the same loader, replays it on its
 * database and answers the report that `policy replay` formats.
 */
import { z } from "zod";
import type { BundleFile } from "../policy/bundle-files.js";
import type { ReplayRange } from "./recorded.js";
import type { ReplayReport } from "./summary.js";

/** A bundle as read by the CLI: what the service loads, and what the report names it by. */
export interface SentBundle {
  directory: string;
  files: readonly BundleFile[];
}

const time = z.iso.datetime({ offset: true });

export const replayRequestSchema = z.strictObject({
  candidate: z.strictObject({
    directory: z.string().max(4096).describe("the bundle's directory on the CLI's machine: the report's name for it"),
    files: z
      .array(
        z.strictObject({
          path: z.string().min(1).max(1024).describe("POSIX path relative to the bundle, e.g. tests/limits.yaml"),
          content: z
            .string()
            .regex(/^[A-Za-z0-9+/]*={0,2}$/)
            .describe("the file's bytes, base64"),
        }),
      )
      .min(1)
      .max(1000),
  }),
  from: time,
  to: time,
  vault: z
    .string()
    .regex(/^vaults\/[A-Za-z0-9_-]+$/)
    .optional(),
  now: time.describe("the time the candidate would take effect (its windows starting short are judged then)"),
});

export type ReplayRequest = z.infer<typeof replayRequestSchema>;

export function replayRequestOf(candidate: SentBundle, range: ReplayRange, now: Date): ReplayRequest {
  return {
    candidate: { directory: candidate.directory, files: candidate.files.map((f) => ({ path: f.path, content: f.bytes.toString("base64") })) },
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    ...(range.vault ? { vault: range.vault } : {}),
    now: now.toISOString(),
  };
}

export function sentBundleOf(request: ReplayRequest): SentBundle {
  return { directory: request.candidate.directory, files: request.candidate.files.map((f) => ({ path: f.path, bytes: Buffer.from(f.content, "base64") })) };
}

const decision = z.enum(["allow", "deny", "defer"]);
const side = z.object({ decision, rules: z.array(z.string()) });

/** The answer of `POST /v1/policy/replay`: the report `policy replay` prints. */
export const replayReportSchema = z.object({
  candidate: z.object({ version: z.string(), digest: z.string(), directory: z.string() }),
  range: z.object({ from: z.string(), to: z.string(), vault: z.string().nullable() }),
  replayed: z.number().int(),
  unchanged: z.number().int(),
  changed: z.number().int(),
  notReplayable: z.number().int(),
  unjudged: z.number().int().describe("decisions the recorded bundle evaluated that the candidate could not be replayed on"),
  transitions: z.record(z.string(), z.number().int()).describe("`allow → deny`: count"),
  byRule: z.record(z.string(), z.number().int()).describe("the candidate's rules (or `(default)`) that decided the changed decisions: count"),
  changes: z.array(z.object({ decisionId: z.string(), transactionName: z.string(), vault: z.string(), decidedAt: z.string(), amounts: z.array(z.string()), from: side, to: side })),
  changesNotListed: z.number().int(),
  notReplayableDecisions: z.array(z.object({ decisionId: z.string(), transactionName: z.string(), reason: z.string() })),
  notReplayableReasons: z.record(z.string(), z.number().int()),
  windowsStartingShort: z.array(z.object({ window: z.string(), groupBy: z.array(z.string()), unchargedUntil: z.string(), completeFrom: z.string() })),
});

/** The report read back; the schema is checked against ReplayReport so the two cannot drift apart. */
export const readReplayReport = (value: unknown): ReplayReport | null => {
  const parsed = replayReportSchema.safeParse(value);
  return parsed.success ? (parsed.data satisfies ReplayReport) : null;
};
