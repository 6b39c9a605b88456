/**
 * The chain's entry hash (docs/audit.md "Integrity: the hash chain"), computed here rather than by
 * the database's `audit_link_hash`, which whoever owns the schema can redefine:
 *
 *   sha256(utf8(jsonb_build_array(source, row_key, row_time, hex(row_digest), hex(prev_hash))::text))
 *
 * with row_time as jsonb prints a timestamptz under timezone = 'UTC': the caller passes that text
 * (`2026-11-25T08:00:00.123456+00:00`). row_time is in the hash so that an anchored checkpoint
 * stands for the time of every entry before it. jsonb prints an array of strings as `["a", "b"]`,
 * each string escaped as JSON.stringify escapes it (`"`, `\`, \b \f \n \r \t, other control
 * characters as lower-case \u00xx; nothing else).
 */
import { createHash } from "node:crypto";

export const ZERO_HASH = "00".repeat(32);

/** `rowTimeText` is the row time as jsonb prints it in UTC. */
export function linkHash(source: string, rowKey: string, rowTimeText: string, rowDigestHex: string, prevHashHex: string): string {
  const text = `[${[source, rowKey, rowTimeText, rowDigestHex, prevHashHex].map((s) => JSON.stringify(s)).join(", ")}]`;
  return createHash("sha256").update(text, "utf8").digest("hex");
}
