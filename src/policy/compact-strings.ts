/**
 * The parsed policy document with every string (and key) held in V8's one-byte form wherever its
 * characters allow it.
 *
 * A parser's strings are slices of the file's text, and V8 keeps a slice in its source's form: one
 * character beyond Latin-1 anywhere in the file (a description's dash) makes every window name,
 * reason and literal two-byte. Those strings go into each decision's group keys, facts and
 * recorded row, and JSON built from a two-byte piece is two-byte throughout: twice the bytes to
 * build, encode for the database and hash, on every decision. Decoding the Latin-1 bytes of a
 * string gives the same characters in the one-byte form.
 */
const BEYOND_LATIN1 = /[\u0100-\uffff]/;

export function compactString(text: string): string {
  return BEYOND_LATIN1.test(text) ? text : Buffer.from(text, "latin1").toString("latin1");
}

export function withCompactStrings(value: unknown): unknown {
  if (typeof value === "string") return compactString(value);
  if (Array.isArray(value)) return value.map(withCompactStrings);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) out[compactString(key)] = withCompactStrings(child);
  return out;
}
