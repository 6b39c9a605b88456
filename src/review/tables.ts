/**
 * Tables owned by src/review/ (composed into the kysely Database in src/database.ts); created by
 * migrations/baseline/tables.sql. Both append-only.
 */
import type { ColumnType, Generated } from "kysely";

type Timestamp = ColumnType<Date, Date | string, never>;
type Json = ColumnType<unknown, string, never>;

/** One row per review: opened once per transaction name and content digest. */
export interface ReviewsTable {
  id: string;
  seq: Generated<string>;
  transaction_name: string;
  vault: string;
  content_digest: string;
  opened_at: Timestamp;
  expires_at: Timestamp;
  /** The decision (a defer) whose delivery opened it. */
  opened_by: string;
  initiator: string | null;
  requirements: Json;
  explanation: Json;
}

export interface ReviewActionsTable {
  id: string;
  seq: Generated<string>;
  at: Timestamp;
  transaction_name: string;
  content_digest: string;
  identity: string | null;
  action: "opened" | "approved" | "rejected" | "expired";
  group: string | null;
  comment: string | null;
}

export interface ReviewTables {
  reviews: ReviewsTable;
  review_actions: ReviewActionsTable;
}
