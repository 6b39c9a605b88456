/**
 * The chain's entry hash (README "Integrity: the hash chain"), computed here rather than by the
 * database's `audit_link_hash`, which whoever owns the schema can redefine:
 *
 *   sha256(utf8(jsonb_build_array(source, row_key, hex(row_digest), hex(prev_hash))::text))
 *
 * jsonb prints an array of strings as `["a", "b"]`, each string escaped as JSON.stringify escapes
 * it (`"`, `\`, \b \f \n \r \t, other control characters as lower-case \u00xx; nothing else).
 */
import { createHash } from "node:crypto";

export const ZERO_HASH = "00".repeat(32);

export function linkHash(source: string, rowKey: string, rowDigestHex: string, prevHashHex: string): string {
  const text = `[${[source, rowKey, rowDigestHex, prevHashHex].map((s) => JSON.stringify(s)).join(", ")}]`;
  return createHash("sha256").update(text, "utf8").digest("hex");
}
