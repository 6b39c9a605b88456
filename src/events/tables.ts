/**
 * Tables owned by src/events/ (composed into the kysely Database in src/database.ts); created by
 * migrations/baseline/tables.sql. Both tables are append-only: the database refuses UPDATE,
 * DELETE and TRUNCATE.
 */
import type { ColumnType } from "kysely";

type Json = ColumnType<unknown, string, never>;
type Timestamp = ColumnType<Date, Date | string, never>;

/** One row per platform event id, however many times it was delivered. */
export interface EventsTable {
  /** The platform's event id. */
  id: string;
  /** Arrival order (int8, as a string). */
  seq: ColumnType<string, never, never>;
  received_at: Timestamp;
  /** `vaults/{vault_id}`; absent on some events (e.g. `TEST`). */
  vault: string | null;
  /** TRANSACTION_CREATED, TRANSACTION_STATE_UPDATED, WALLET_CREATED, WALLET_ADDRESS_CREATED, TEST, ... */
  type: string;
  /** TRANSACTION, WALLET, WALLET_ADDRESS */
  resource_type: string | null;
  /** Resource name of the affected transaction, wallet or wallet address. */
  resource: string | null;
  /** For TRANSACTION_STATE_UPDATED: `details.transactionStateUpdated.newState`. */
  new_state: string | null;
  details: ColumnType<unknown, string | null, never>;
  /** The whole body as jsonb, unknown fields included. */
  payload: Json;
  /** The exact bytes received; with `signature`, enough to re-verify the row. */
  body: ColumnType<Buffer, Buffer, never>;
  /** The `x-service-signature` header as received (base64). */
  signature: string;
}

/** An event whose effect completed; a redelivery of it runs nothing. */
export interface EventEffectsTable {
  event_id: string;
  /** `void-charges`, `count-charges-again` or `resync-wallets`. */
  effect: string;
  completed_at: Timestamp;
}

/** View: each transaction's state history, in arrival order (`order by seq`). */
export interface TransactionStatesView {
  transaction_name: string;
  vault: string | null;
  state: string;
  event_type: string;
  event_id: string;
  received_at: ColumnType<Date, never, never>;
  seq: ColumnType<string, never, never>;
}

export interface EventTables {
  events: EventsTable;
  event_effects: EventEffectsTable;
  transaction_states: TransactionStatesView;
}
