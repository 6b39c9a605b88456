/**
 * A verify run as one value: the report, or the refusal (VerifyRefused) when verify will not read
 * the database as it stands. `countersign audit verify` prints it the same way whether it ran here
 * or through the running service's `POST /v1/audit/verify`, which answers it as JSON.
 */
import { z } from "zod";
import type { Db } from "../database.js";
import { verifyChain, VerifyRefused, type RefusalCode, type VerifyOptions, type VerifyReport } from "./verify.js";

export type VerifyOutcome = { report: VerifyReport } | { refused: { code: RefusalCode; message: string } };

/** What `audit verify` asks: the chain verified here, or through the service. */
export type VerifyTrail = (options: VerifyOptions) => Promise<VerifyOutcome>;

export async function verifyOutcome(db: Db, options: VerifyOptions): Promise<VerifyOutcome> {
  try {
    return { report: await verifyChain(db, options) };
  } catch (error) {
    if (!(error instanceof VerifyRefused)) throw error;
    return { refused: { code: error.code, message: error.message } };
  }
}

const verifyBreak = z.object({
  kind: z.enum(["changed", "missing", "inserted", "reordered", "unsealed", "json_null", "planted"]),
  position: z.number().int().nullable().describe("the chain position, when the break is in the chain"),
  source: z.string(),
  rowKey: z.string(),
  column: z.string().optional().describe("json_null: the column holding JSON null"),
  detail: z.string(),
});

/** The answer of `POST /v1/audit/verify`, read back by the CLI. */
export const verifyOutcomeSchema = z.union([
  z.object({
    report: z.object({
      ok: z.boolean().describe("true: the chain is intact"),
      schema: z.string().describe("the schema verified"),
      breaks: z.array(verifyBreak).describe("the first breaks found, in order"),
      breakCount: z.number().int().describe("breaks found in all"),
      firstPosition: z.number().int(),
      lastPosition: z.number().int(),
      lastHash: z.string().nullable(),
      pending: z.number().int().describe("rows written since the last seal and within the grace, not linked yet (not a break)"),
    }),
  }),
  z.object({
    refused: z.object({
      code: z.enum(["no_table", "shadowed_table", "user_type", "row_security", "rewrite_rules"]),
      message: z.string(),
    }),
  }),
]);

/** The body of `POST /v1/audit/verify`: the options of `audit verify`, already checked by the CLI. */
export const verifyRequestSchema = z
  .strictObject({
    schema: z.string().min(1).max(63).optional().describe("the schema holding the audit tables (default public)"),
    from: z.iso.datetime({ offset: true }).optional().describe("rows dated before it count as archived (needs checkpoint)"),
    checkpoint: z
      .strictObject({ position: z.number().int().min(1), hash: z.string().regex(/^[0-9a-f]{64}$/) })
      .optional()
      .describe("an anchor from `audit checkpoint`: the chain must pass through it"),
  })
  .refine((r) => r.from === undefined || r.checkpoint !== undefined, { message: "from needs checkpoint, the anchor taken before archiving", path: ["checkpoint"] });

export type VerifyRequest = z.infer<typeof verifyRequestSchema>;

export function verifyOptionsOf(request: VerifyRequest): VerifyOptions {
  return {
    ...(request.schema ? { schema: request.schema } : {}),
    ...(request.from ? { from: new Date(request.from) } : {}),
    ...(request.checkpoint ? { checkpoint: request.checkpoint } : {}),
  };
}

export function verifyRequestOf(options: VerifyOptions): VerifyRequest {
  return {
    ...(options.schema ? { schema: options.schema } : {}),
    ...(options.from ? { from: options.from.toISOString() } : {}),
    ...(options.checkpoint ? { checkpoint: options.checkpoint } : {}),
  };
}
