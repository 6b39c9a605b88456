/**
 * Text from a webhook body (the note, type, payload names made of its keys) or the platform (an
 * address-book name), made safe to print where a reader decides on it: each control, format or
 * line-separator character is written as its `\uXXXX` escape. In a terminal such a character is
 * an instruction (ESC [8m conceals every line printed after it; a newline starts a line of the
 * initiator's own that reads as a transfer); in any text a bidi override or a zero-width
 * character makes what is read differ from what is there.
 */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;
/** In HTML a tab or a line break is a space, and nothing more: kept. */
const UNREADABLE = /(?![\t\n\r])[\p{Cc}\p{Cf}\u2028\u2029]/gu;

const escape = (c: string) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, "0")}`;

/** For a terminal or a chat message: every such character escaped. */
export const printable = (value: unknown): string => String(value ?? "").replace(UNPRINTABLE, escape);

/** For HTML: the same but for tabs and line breaks, which a page shows as spaces. */
export const readable = (value: unknown): string => String(value ?? "").replace(UNREADABLE, escape);

/** For HTML or XML, in text or a quoted attribute: `readable`, with the markup characters as entities. */
export const markupText = (value: unknown): string => readable(value).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
