/**
 * Tables owned by src/velocity/ (composed into the kysely Database in src/database.ts); created by
 * migrations/baseline/tables.sql. Group keys are stored once, in `velocity_groups`; the
 * other tables refer to a group by the SHA-256 of its key (32 bytes, however long the key).
 * bytea comes back as a Buffer from pg and a Uint8Array from PGlite; numeric as a string from both.
 */
import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string, never>;

export interface VelocityGroupsTable {
  group_hash: Uint8Array;
  group_key: string;
  first_charged_at: Timestamp;
}

/** One allowed transfer charged to one group. Kept forever; only `voided_at` is ever set, once. */
export interface VelocityChargesTable {
  id: Generated<string>;
  decision_id: string;
  transaction_name: string;
  vault: string;
  transfer_index: number;
  group_hash: Uint8Array;
  /** Whole units, exact; null when only a raw amount is known (counts, adds nothing). */
  amount: string | null;
  /** Dollars at the decision's price, exact; null when the decision had no price for it (counts no dollars). */
  usd: ColumnType<string | null, string | null | undefined, never>;
  /** The transfer's asset (transfer.asset); null on charges recorded before charges kept it. */
  asset: ColumnType<string | null, string | null | undefined, never>;
  charged_at: Timestamp;
  voided_at: ColumnType<Date | null, Date | string | null, Date | string>;
}

/** Running totals of a group's live charges in one epoch-aligned bucket of `width_seconds`. */
export interface VelocityBucketsTable {
  group_hash: Uint8Array;
  width_seconds: number;
  bucket_start: Timestamp;
  amount: string;
  count: ColumnType<string, string | number, string | number>;
  usd: ColumnType<string, string | undefined, string>;
}

/**
 * A `serve` process's claim on the ledger: the longest window of one bundle it has in force.
 * `velocity_prune_batch` keeps what the longest live claim reads (migrations/sql/functions/velocity.sql);
 * written only through `velocity_window_claim`.
 */
export interface VelocityWindowClaimsTable {
  holder: string;
  window_seconds: number;
  claimed_at: ColumnType<Date, never, never>;
  lapses_at: ColumnType<Date, never, never>;
}

/** A void run by hand (`countersign velocity void`), in the audit trail (migrations/baseline/tables.sql). */
export interface VelocityVoidsTable {
  id: string;
  seq: ColumnType<string, never, never>;
  at: Timestamp;
  transaction_name: string;
  charges: number;
  operator: string;
  reason: string;
  database_user: ColumnType<string, never, never>;
}

export interface VelocityTables {
  velocity_groups: VelocityGroupsTable;
  velocity_charges: VelocityChargesTable;
  velocity_buckets: VelocityBucketsTable;
  velocity_window_claims: VelocityWindowClaimsTable;
  velocity_voids: VelocityVoidsTable;
}
