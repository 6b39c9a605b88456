/**
 * A list written as one string in a rule — `{"in": [{"var": "transfer.destination.address"},
 * "0.0.12345, treasury.near"]}` — is a list of items, as its author means, not text to search.
 * json-logic-js's `in` over a string is a substring search, so under that allowlist `0.0.1234` (another
 * Hedera account) and `sury.near` (a NEAR account anyone can register) were allowed, and the hour 1
 * was found in "9, 10, 11" as a digit of "10". Every
 * evaluation (applyLogic: the webhook, `policy check`, replay, shadow) reads such a string
 * as the array of its items, each in the canonical spelling the facts use, compared one by one as
 * an array's are (membership.ts), so an item is found whole and never as part of another item.
 *
 * Only a string written in the rule is a list: text read from the facts (`{"in": ["invoice",
 * {"var": "tx.note"}]}`) is still searched as text. A list the rule chooses with `if` or `?:` is
 * read the same way in each branch.
 *
 * Its items are text, so a number or true/false looked for among them is never one: json-logic-js
 * found the hour 23 in "22, 23, 0" as text, and read as a list a deny rule so written would never
 * deny, silently. Loading refuses the plain `{"var": "nowHour"}` (validate-logic.ts); a needle
 * whose type loading cannot tell (a `var` with a default, an item of `some`, a list chosen by `if`)
 * makes the evaluation fail instead (membership.ts), which a deny rule counts as matched (such rules loaded and never matched).
 */

import { canonicalLiteral } from "../chains/canonical.js";

/**
 * What separates the items: commas, semicolons, line breaks, quotes, brackets and `|`, so a list
 * quoted item by item or a JSON list pasted into the string is read item by item, their full-width
 * forms (`，`, `；`, `｜`, `（`, `＂`, …) and the ideographic commas `、` `､`, which a list typed with a CJK keyboard
 * holds (read as part of an item, a deny list so written stopped naming its items), typographic double quotes (`“…”`, `„…“`, `«…»`, `‹…›`), which an
 * editor or a chat client puts for `"`, and CJK brackets (`「」`, `『』`, `【】`, `〈〉`, `《》`) (`"“0xbad…”, “0xevil…”"` named no item); and white
 * space. Not the typographic single quotes: `’` is the apostrophe of a name (`McDonald’s Corp`),
 * which a deny list of names must still find whole.
 * `.`, `/`, `:`, `-`, `_` and `+` stay inside an item: a NEAR account (`treasury.near`), a Hedera
 * account (`0.0.12345`), an asset name (`assets/native.ethereum-mainnet`), a raw TON account
 * (`0:83df…`) and base64 hold them.
 */
const ITEM_SEPARATORS =
  /[,;|'"`()[\]{}<>\r\n\uFF0C\uFF1B\uFF5C\u3001\uFF64\u201C-\u201F\u2039\u203A\u00AB\u00BB\uFF02\uFF07\uFF40\uFF08\uFF09\uFF3B\uFF3D\uFF5B\uFF5D\uFF1C\uFF1E\u3008-\u3011]+/;
const SPACES = /\s+/;

/**
 * The items of a list written as one string, without empty ones. An item between the other
 * separators that holds a space is an item whole and each of its words one too: no address holds a
 * space, so `0.0.12345 treasury.near` names two accounts, while a name or a memo does, and a deny
 * list `"Sanctioned Exchange, Bad Co"` that substring search matched must still match the display
 * name `Sanctioned Exchange` (a word alone is found as it was before; write an array to keep it whole).
 */
export function listItems(text: string): string[] {
  return text.split(ITEM_SEPARATORS).flatMap((part) => {
    const item = part.trim();
    if (item === "") return [];
    const words = item.split(SPACES);
    return words.length === 1 ? [item] : [item, ...words];
  });
}

/** Operations whose result is one of their arguments: `if` and `?:` ([condition, then, …, else]). */
const CHOOSING_OPERATIONS: ReadonlySet<string> = new Set(["if", "?:"]);

/** The single operation of an expression object, or null for anything else. */
function operationOf(expr: unknown): [string, unknown] | null {
  if (typeof expr !== "object" || expr === null || Array.isArray(expr)) return null;
  const entries = Object.entries(expr);
  return entries.length === 1 ? entries[0]! : null;
}

/**
 * A list written as one string, read as its items. An object without keys of its own to
 * json-logic-js, which passes it through as a value; `in` (membership.ts) knows it by its class.
 */
export class StringList {
  readonly #items: readonly string[];

  constructor(text: string) {
    // Each item in the spelling the facts use, as a literal outside a list is (canonical-literals.ts).
    this.#items = listItems(text).map(canonicalLiteral);
  }

  get items(): readonly string[] {
    return this.#items;
  }
}

/** `in`'s haystack with each string the rule writes as its list read as that list's items. */
function asList(haystack: unknown): unknown {
  if (typeof haystack === "string") return new StringList(haystack);
  const operation = operationOf(haystack);
  if (operation === null || !CHOOSING_OPERATIONS.has(operation[0]) || !Array.isArray(operation[1])) return withStringLists(haystack);
  const args = operation[1];
  const isResult = (i: number) => i % 2 === 1 || (i === args.length - 1 && args.length % 2 === 1);
  return { [operation[0]]: args.map((arg, i) => (isResult(i) ? asList(arg) : withStringLists(arg))) };
}

/**
 * The expression with every `in` over a string written in the rule reading it as its items: a new
 * expression, the one given is left as it is (a loaded bundle's rules stay as written, for traces).
 */
export function withStringLists(expr: unknown): unknown {
  if (Array.isArray(expr)) return expr.map(withStringLists);
  const operation = operationOf(expr);
  if (operation === null) return expr;
  const [op, args] = operation;
  if (op === "in" && Array.isArray(args) && args.length === 2) return { in: [withStringLists(args[0]), asList(args[1])] };
  return { [op]: withStringLists(args) };
}
