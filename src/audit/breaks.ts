/** What `audit verify` reports as broken: each finding of the chain check and of the schema check. */

export type BreakKind = "changed" | "missing" | "inserted" | "reordered" | "unsealed" | "json_null" | "planted";

export interface Break {
  kind: BreakKind;
  /** Chain position, when the break is in the chain. */
  position: number | null;
  source: string;
  rowKey: string;
  /** The column concerned (json_null). */
  column?: string;
  detail: string;
}
