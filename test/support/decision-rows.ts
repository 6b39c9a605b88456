/** A complete `decisions` row for tests that need one to exist (charges and joins refer to it). */
import { randomUUID } from "node:crypto";

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
