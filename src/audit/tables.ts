/**
 * The audit trail's table as kysely reads it (src/database.ts composes every feature's tables).
 * Column types follow what pg and PGlite return: `numeric` comes back as a string and stays one.
 */
import type { ColumnType, Generated } from "kysely";

type Json = ColumnType<unknown, string, never>;
type NullableJson = ColumnType<unknown, string | null, never>;
type NullableText = ColumnType<string | null, string | null, never>;

/** Append-only: the database refuses UPDATE, DELETE and TRUNCATE (see migrations). */
export interface DecisionsTable {
  id: string;
  decided_at: ColumnType<Date, Date | string, never>;
  transaction_name: string;
  vault: string;
  decision: "allow" | "deny" | "defer";
  sign_transaction: boolean | null;
  http_status: number;
  replayed: boolean;
  /** For a replay or a conflicting delivery: the final decision it refers to. */
  replay_of: string | null;
  policy_version: string;
  policy_digest: string;
  matched_rules: Json;
  reasons: Json;
  facts: Json;
  transaction: Json;
  /** SHA-256 of the normalised transfers; a later delivery with another digest conflicts. */
  content_digest: string;
  request_id: string;
  duration_ms: number;
  /** Insertion order, for the integrity chain and for stable ordering. */
  seq: Generated<string>;
  /**
   * Per evaluation, every rule with its comparisons' operand values (src/core/policy/trace.ts); null on
   * a row the policy did not evaluate (a repeat, a conflict, a decision made outright).
   */
  trace: NullableJson;
  /** The window definitions the facts' velocity totals were computed with (for replay); null where trace is. */
  velocity_windows: NullableJson;
  /** The shadow bundle's evaluation on the same facts (COUNTERSIGN_SHADOW_POLICIES); null where none was evaluated. */
  shadow_policy_version: NullableText;
  shadow_policy_digest: NullableText;
  shadow_decision: ColumnType<"allow" | "deny" | "defer" | null, string | null, never>;
  shadow_matched_rules: NullableJson;
  /** Every USD price the evaluation used (asset, usd, fetchedAt, source); null where none was. */
  prices: NullableJson;
  shadow_error: NullableText;
}

export interface AuditTables {
  decisions: DecisionsTable;
}
