/**
 * `in` of policy JSON-logic: json-logic-js's membership of an array (plain equality, as `===`) or
 * substring of a string, with the project's rules for lists written as one string (string-lists.ts).
 * The facts and a rule's literals are both in canonical spelling (canonical-literals.ts), so no
 * address is compared any other way. Text read from the facts (a note, a memo) is searched as text:
 * only text is looked for there (json-logic-js looked for null or a number as its spelling, so a
 * missing fact was found in any text holding "null" and the hour 1 in "10"), and an address whose
 * letter case is only a checksum is looked for without case, since the literal is canonical and the
 * text is as its author wrote it.
 */
import { isCaseFreeAddress } from "../chains/accounts.js";
import { describeValue, LogicError } from "./logic-error.js";
import { StringList } from "./string-lists.js";

function contains(needle: unknown, haystack: unknown): boolean {
  if (Array.isArray(haystack)) return haystack.includes(needle);
  if (haystack instanceof StringList) return inStringList(needle, haystack);
  if (typeof haystack !== "string" || typeof needle !== "string") return false;
  if (haystack.includes(needle)) return true;
  return isCaseFreeAddress(needle) && haystack.toLowerCase().includes(needle.toLowerCase());
}

/**
 * `in` over a list written as one string: a value is one of its items as in an array. Its items are
 * text: a number or true/false looked for there is an evaluation error, never "not found", so that a
 * deny rule written so denies (it counts as matched) rather than sign.
 */
function inStringList(needle: unknown, list: StringList): boolean {
  if (typeof needle === "number" || typeof needle === "boolean") {
    throw new LogicError(
      `"in" looks for ${describeValue(needle)} among the items of a list written as one string, which are text: write the list as an array of ${typeof needle === "number" ? "numbers" : "true or false"}`,
    );
  }
  return list.items.includes(needle as string);
}

export const MEMBERSHIP_OPERATIONS: Readonly<Record<string, (...args: unknown[]) => unknown>> = {
  in: (needle, haystack) => contains(needle, haystack),
};
