/**
 * What the decision's database session takes and gives (src/decision/session.ts), on its own so
 * that the batcher that shares a session (batches.ts) and the session itself both import it.
 */

/** The pieces of each window query (by its index, `ord`): bucket ranges and the exact edge. */
export interface WindowPiecesJson {
  /** Each query's group hash, hex, by ord. */
  hashes: string[];
  buckets: { ord: number; width: number; from_at: string; until_at: string }[];
  edges: { ord: number; after_at: string; until_at: string }[];
}

export interface ReadArgs extends WindowPiecesJson {
  name: string;
  /** A Postgres text[] literal: the transaction states that end it without moving money. */
  failedStates: string;
  /** Whether evaluation may follow: take the group locks and read the totals. */
  evaluate: boolean;
  /** A Postgres int8[] literal: the group lock ids, ascending. */
  locks: string;
}

/** The read's columns; null where it found nothing or did not look. */
export interface ReadResult {
  final: Record<string, unknown> | null;
  review: Record<string, unknown> | null;
  actions: Record<string, unknown>[] | null;
  failure: { id: string; new_state: string } | null;
  /** The sum of each piece read, in three arrays in step: its query's ord (several per window query), amount, count. */
  total_ords: number[] | null;
  total_amounts: string[] | null;
  total_counts: string[] | null;
  total_usds: string[] | null;
}

export interface DecisionSession {
  read(args: ReadArgs): Promise<ReadResult>;
  write(args: Record<string, unknown>): Promise<void>;
}
