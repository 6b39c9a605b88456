import { describe, expect, it } from "vitest";
import { applyLogic, LogicError } from "./decimal-logic.js";
import { listItems, StringList, withStringLists } from "./string-lists.js";

const destination = { var: "transfer.destination.address" };
const to = (address: unknown) => ({ transfer: { destination: { address } } });
const ALLOWLIST = "0.0.12345, treasury.near";

// json-logic-js searched a list written as one string as
// text, so a destination that is part of an account named (0.0.1234, sury.near) was in the list.
describe("a list written as one string is a list of its items", () => {
  it.each([
    ["0.0.12345", true],
    ["treasury.near", true],
    ["0.0.1234", false],
    ["0.0.1", false],
    ["sury.near", false],
    ["near", false],
    ["12345, treasury", false],
    ["", false],
  ])("%s in an allowlist naming 0.0.12345 and treasury.near: %s", (address, expected) => {
    expect(applyLogic({ in: [destination, ALLOWLIST] }, to(address))).toBe(expected);
  });

  it("a deny rule written as not-in a string list denies a part of an item it names", () => {
    const notAllowed = { "!": { in: [destination, ALLOWLIST] } };
    expect(applyLogic(notAllowed, to("sury.near"))).toBe(true);
    expect(applyLogic(notAllowed, to("treasury.near"))).toBe(false);
  });

  it("an asset is not in a list naming a longer asset it begins", () => {
    const asset = { var: "transfer.asset" };
    expect(applyLogic({ in: [asset, "assets/native.ethereum-mainnet2, assets/erc20.x"] }, { transfer: { asset: "assets/native.ethereum-mainnet" } })).toBe(false);
    expect(applyLogic({ in: [asset, "assets/native.ethereum-mainnet2, assets/erc20.x"] }, { transfer: { asset: "assets/erc20.x" } })).toBe(true);
  });

  it("a missing fact or null is not found in a list written as one string", () => {
    expect(applyLogic({ in: [destination, "null, undefined, 0.0.12345"] }, to(null))).toBe(false);
    expect(applyLogic({ in: [destination, "null, undefined, 0.0.12345"] }, { transfer: { destination: {} } })).toBe(false);
  });

  // json-logic-js found the hour 23 in "22, 23, 0" as
  // text; read as a list of text items, a number was silently never in it, and loading refuses only
  // a plain {"var": "nowHour"}. A deny rule choosing its list with if, reading an item of some or a
  // var with a default loaded and never denied.
  it("a number or true looked for in a list written as one string is an evaluation error, never 'not found'", () => {
    const hours = (needle: unknown) => ({ in: [needle, { if: [{ var: "weekend" }, "0, 1, 2", "22, 23, 0"] }] });
    for (const expr of [
      { in: [{ var: "n" }, "137"] },
      { in: [{ var: "n" }, "9, 10, 11"] },
      hours({ var: "n" }),
      hours({ var: ["n", 0] }),
      { "?:": [true, { in: [{ var: "n" }, { "?:": [{ var: "weekend" }, "1", "23"] }] }, false] },
      { some: [[{ var: "n" }], { in: [{ var: "" }, "22, 23, 0"] }] },
      { in: [{ var: "b" }, "true"] },
    ]) {
      expect(() => applyLogic(expr, { n: 23, b: true, weekend: false }), JSON.stringify(expr)).toThrow(LogicError);
    }
  });

  it("reads a list quoted item by item, a JSON list pasted in, or items separated by | or ;", () => {
    for (const list of [`'0.0.12345', 'treasury.near'`, `["0.0.12345","treasury.near"]`, "0.0.12345|treasury.near", "0.0.12345;treasury.near", "0.0.12345\n  treasury.near"]) {
      expect([list, applyLogic({ in: [destination, list] }, to("treasury.near"))]).toEqual([list, true]);
      expect([list, applyLogic({ in: [destination, list] }, to("0.0.1234"))]).toEqual([list, false]);
    }
  });

  // A name or a memo holds spaces, an address never: a deny list of names in one string still
  // names each whole, as substring search found it, and an address list may be separated by spaces.
  it("finds an item holding a space whole, and each word of it", () => {
    const name = { var: "transfer.destination.addressBook.displayName" };
    const named = (displayName: string) => ({ transfer: { destination: { addressBook: { displayName } } } });
    expect(applyLogic({ in: [name, "Sanctioned Exchange, Bad Co"] }, named("Sanctioned Exchange"))).toBe(true);
    expect(applyLogic({ in: [name, "Sanctioned Exchange, Bad Co"] }, named("Bad Co"))).toBe(true);
    expect(applyLogic({ in: [name, "Sanctioned Exchange, Bad Co"] }, named("Exchange, Bad"))).toBe(false);
    expect(applyLogic({ in: [name, "Sanctioned Exchange, Bad Co"] }, named("Sanctioned Ex"))).toBe(false);
    expect(applyLogic({ in: [destination, "0.0.12345, treasury.near other.near"] }, to("other.near"))).toBe(true);
    expect(applyLogic({ in: [destination, "0.0.12345, treasury.near other.near"] }, to("her.near"))).toBe(false);
  });

  it("reads each list an if or ?: chooses", () => {
    const perVault = { in: [destination, { if: [{ "===": [{ var: "tx.vault" }, "vaults/a"] }, ALLOWLIST, "other.near"] }] };
    expect(applyLogic(perVault, { ...to("sury.near"), tx: { vault: "vaults/a" } })).toBe(false);
    expect(applyLogic(perVault, { ...to("treasury.near"), tx: { vault: "vaults/a" } })).toBe(true);
    expect(applyLogic(perVault, { ...to("her.near"), tx: { vault: "vaults/b" } })).toBe(false);
    const chosen = { in: [destination, { "?:": [{ var: "c" }, ALLOWLIST, "other.near"] }] };
    expect(applyLogic(chosen, { ...to("0.0.1234"), c: true })).toBe(false);
  });

  it("still looks for text inside text read from the facts", () => {
    expect(applyLogic({ in: ["invoice", { var: "tx.note" }] }, { tx: { note: "invoice 42, Springfield" } })).toBe(true);
    expect(applyLogic({ in: ["Spring", { var: "tx.note" }] }, { tx: { note: "invoice 42, Springfield" } })).toBe(true);
    expect(applyLogic({ in: ["spring", { var: "tx.note" }] }, { tx: { note: "invoice 42, Springfield" } })).toBe(false);
    expect(applyLogic({ in: [{ var: "n" }, { var: "tx.note" }] }, { n: 42, tx: { note: "invoice 42" } })).toBe(false);
  });

  it("evaluates a loaded (frozen) rule's list without changing the rule, which traces show as written", () => {
    const rule = Object.freeze({ in: Object.freeze([Object.freeze({ ...destination }), ALLOWLIST]) });
    expect(applyLogic(rule, to("sury.near"))).toBe(false);
    expect(applyLogic(rule, to("treasury.near"))).toBe(true);
    expect(rule.in[1]).toBe(ALLOWLIST);
  });
});

describe("listItems and withStringLists", () => {
  it("splits at commas, semicolons, white space, quotes, brackets and |, keeping . / : - inside items", () => {
    expect(listItems(` ["0.0.12345", 'treasury.near'] ; assets/native.ethereum-mainnet|(0:83df) {a-b} <c_d> \`e+f\``)).toEqual([
      "0.0.12345",
      "treasury.near",
      "assets/native.ethereum-mainnet",
      "0:83df",
      "a-b",
      "c_d",
      "e+f",
    ]);
    expect(listItems(" , ;")).toEqual([]);
    // Full-width separators and the ideographic comma, as a CJK keyboard types a list.
    expect(listItems("0.0.12345，treasury.near；a｜b、c")).toEqual(["0.0.12345", "treasury.near", "a", "b", "c"]);
    // Typographic quotes and CJK brackets, as an editor or a chat client rewrites "…" and (…): a deny
    // list so quoted must name its items.
    expect(listItems("“0.0.12345”, “treasury.near” «a» 「b」『c』【d】（e）［f］〈g〉《h》｛i｝＜j＞＂k＂＇l＇｀m｀„n“‹p›､q")).toEqual([
      "0.0.12345",
      "treasury.near",
      "a",
      "b",
      "c",
      "d",
      "e",
      "f",
      "g",
      "h",
      "i",
      "j",
      "k",
      "l",
      "m",
      "n",
      "p",
      "q",
    ]);
    // The typographic apostrophe stays inside a name, which a deny list of names finds whole.
    expect(listItems("McDonald’s Corp, Bad Co")).toEqual(["McDonald’s Corp", "McDonald’s", "Corp", "Bad Co", "Bad", "Co"]);
    expect(applyLogic({ in: [destination, "“0xbad0000000000000000000000000000000000bad”, “treasury.near”"] }, to("treasury.near"))).toBe(true);
    expect(listItems("Sanctioned Exchange, Bad Co\n0.0.1 0.0.2")).toEqual([
      "Sanctioned Exchange",
      "Sanctioned",
      "Exchange",
      "Bad Co",
      "Bad",
      "Co",
      "0.0.1 0.0.2",
      "0.0.1",
      "0.0.2",
    ]);
  });

  it("rewrites only in's string haystacks, at any depth, and leaves a needle or other text alone", () => {
    const items = (list: unknown) => (list instanceof StringList ? list.items : list);
    const rewritten = withStringLists({ and: [{ in: ["a b", "c, d"] }, { "===": [{ var: "x" }, "e, f"] }, { some: [{ var: "l" }, { in: [{ var: "" }, "g h"] }] }] }) as {
      and: [{ in: [string, unknown] }, unknown, { some: [unknown, { in: [unknown, unknown] }] }];
    };
    expect(items(rewritten.and[0].in[1])).toEqual(["c", "d"]);
    expect(rewritten.and[0].in[0]).toBe("a b");
    expect(rewritten.and[1]).toEqual({ "===": [{ var: "x" }, "e, f"] });
    expect(items(rewritten.and[2].some[1].in[1])).toEqual(["g h", "g", "h"]);
    expect(withStringLists({ in: ["a", { var: "tx.note" }] })).toEqual({ in: ["a", { var: "tx.note" }] });
  });
});
