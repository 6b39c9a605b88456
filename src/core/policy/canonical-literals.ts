/**
 * A rule's literals read as the facts spell them. The parser writes every account and asset in its
 * canonical spelling (src/core/chains/canonical.ts); a rule may name them in any spelling their family
 * reads as the same one (an EVM address in checksum case, a TON account raw or bounceable, a Tron
 * contract in hex), so each literal is rewritten to that spelling before evaluation and `==`, `===`
 * and `in` stay plain equality, which is transitive. Text that names no account or asset is left as
 * written, and so are `var` paths and the keys of `missing`.
 */
import { canonicalLiteral } from "../chains/canonical.js";

/** Operations whose arguments are paths into the facts, never values. */
const PATH_OPERATIONS: ReadonlySet<string> = new Set(["var", "missing", "missing_some"]);

/** A new expression with every literal in its canonical spelling; the one given is left as it is. */
export function withCanonicalLiterals(expr: unknown): unknown {
  if (typeof expr === "string") return canonicalLiteral(expr);
  if (Array.isArray(expr)) return expr.map(withCanonicalLiterals);
  if (typeof expr !== "object" || expr === null) return expr;
  const entries: [string, unknown][] = Object.entries(expr);
  if (entries.length !== 1) return expr;
  const [op, args] = entries[0]!;
  return PATH_OPERATIONS.has(op) ? expr : { [op]: withCanonicalLiterals(args) };
}
