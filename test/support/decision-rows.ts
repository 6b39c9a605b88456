/** A complete `decisions` row for tests that need one to exist (charges and joins refer to it). */
import { randomUUID } from "node:crypto";
import type { DecisionRow } from "../../src/audit/decision-rows.js";

export function decisionRow(overrides: Record<string, unknown> = {}) {
  return {
    id: randomUUID(),
    decided_at: new Date(),
    transaction_name: "vaults/v1/transactions/t1",
    vault: "vaults/v1",
    decision: "allow" as "allow" | "deny" | "defer",
    sign_transaction: true as boolean | null,
    http_status: 200,
    replayed: false,
    replay_of: null,
    policy_version: "test",
    policy_digest: "0".repeat(64),
    matched_rules: "[]",
    reasons: "[]",
    facts: "[]",
    transaction: "{}",
    content_digest: "x",
    request_id: randomUUID(),
    duration_ms: 1,
    ...overrides,
  };
}

/** An allow decision of `name`, as the decision path hands it to `writeArgs` (src/decision/session-args.ts). */
export function allowDecision(name: string): DecisionRow {
  return {
    id: randomUUID(),
    decidedAt: new Date(),
    transactionName: name,
    vault: "vaults/v1",
    decision: "allow",
    httpStatus: 200,
    replayed: false,
    replayOf: null,
    policyVersion: "test",
    policyDigest: "0".repeat(64),
    matchedRules: [],
    reasons: [],
    facts: [],
    transaction: {},
    contentDigest: "x",
    requestId: randomUUID(),
    durationMs: 1,
  };
}
