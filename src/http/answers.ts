/** zod schemas of countersign's answers: the source of the OpenAPI document's response types. */
import { z } from "zod";

export const errorEnvelope = z.object({
  error: z.object({
    code: z.string().describe("stable error code, e.g. BAD_JSON, INVALID_TRANSACTION, UNAUTHORIZED, DEFERRED"),
    message: z.string(),
    requestId: z.string(),
    decisionId: z.uuid().optional().describe("for a policy defer: the recorded decision"),
    reasons: z.array(z.string()).optional(),
    details: z.unknown().optional(),
  }),
});

export const signAnswer = z.object({
  signTransaction: z.boolean().describe("true signs; false cancels the transaction for good"),
  decisionId: z.uuid().describe("id of the decisions row recorded for this delivery"),
  policyVersion: z.string(),
  replayOf: z.uuid().optional().describe("for a repeated delivery: the final decision it repeats (or conflicts with)"),
  reasons: z.array(z.string()).optional().describe("present when signTransaction is false"),
});

export const ruleMatch = z.object({
  rule: z.string(),
  decision: z.enum(["allow", "deny", "defer"]),
  transfer: z.number().int().nullable(),
  error: z.string().optional(),
});

export const evaluateAnswer = z.object({
  decision: z.enum(["allow", "deny", "defer"]),
  reasons: z.array(z.string()),
  policyVersion: z.string(),
  policyDigest: z.string(),
  matchedRules: z.array(ruleMatch),
  evaluations: z.array(z.unknown()),
  facts: z.array(z.record(z.string(), z.unknown())).describe("one facts document per evaluation (CONTRACT.md section 4)"),
});

export const policyStatus = z.object({
  version: z.string(),
  digest: z.string(),
  directory: z.string(),
  loadedAt: z.string(),
  lastReloadAt: z.string().nullable(),
  lastReloadError: z.string().nullable(),
  addressBook: z.unknown().optional(),
});

export const readiness = z.object({
  status: z.enum(["ready", "not ready"]),
  policy: z.object({ version: z.string() }),
  checks: z.record(z.string(), z.string()),
});
