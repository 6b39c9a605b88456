/**
 * The chain's entry hash (README "Integrity: the hash chain"), computed here rather than by the
 * database's `audit_link_hash`, which whoever owns the schema can redefine. Two versions
 * (`audit_chain.hash_version`):
 *
 *   1: sha256(utf8(jsonb_build_array(source, row_key, hex(row_digest), hex(prev_hash))::text))
 *   2: sha256(utf8(jsonb_build_array(source, row_key, row_time, hex(row_digest), hex(prev_hash))::text))
 *
 * with row_time (version 2, migration 20261125T0820_audit_hash_v2) as jsonb prints a timestamptz
 * under timezone = 'UTC': the caller passes that text (`2026-11-25T08:00:00.123456+00:00`).
 * jsonb prints an array of strings as `["a", "b"]`, each string escaped as JSON.stringify escapes
 * it (`"`, `\`, \b \f \n \r \t, other control characters as lower-case \u00xx; nothing else).
 */
import { createHash } from "node:crypto";

export const ZERO_HASH = "00".repeat(32);

export function linkHash(source: string, rowKey: string, rowDigestHex: string, prevHashHex: string): string {
  return hashArray([source, rowKey, rowDigestHex, prevHashHex]);
}

/** Version 2: `rowTimeText` is the row time as jsonb prints it in UTC. */
export function linkHashV2(source: string, rowKey: string, rowTimeText: string, rowDigestHex: string, prevHashHex: string): string {
  return hashArray([source, rowKey, rowTimeText, rowDigestHex, prevHashHex]);
}

function hashArray(items: string[]): string {
  const text = `[${items.map((s) => JSON.stringify(s)).join(", ")}]`;
  return createHash("sha256").update(text, "utf8").digest("hex");
}
