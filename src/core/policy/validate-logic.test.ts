import { describe, expect, it } from "vitest";
import { buildFacts } from "../facts/build.js";
import { FACTS_SHAPE, type FactShape, readFactPath } from "../facts/shape.js";
import { tx, view } from "../facts/test-views.js";
import { EVM_DEST, EXAMPLES, apiBody, apiTransfer, assetTransferBody, example } from "../transaction/test-bodies.js";
import { validateLogic } from "./validate-logic.js";

const windows = [
  { name: "daily_out", measure: "amount" as const },
  { name: "hourly_count", measure: "count" as const },
];

describe("validateLogic accepts", () => {
  it.each([
    ["the contract's example rule", { "!": { in: [{ var: "tx.kind" }, ["assetTransfer", "stellarTransaction"]] } }],
    ["and with comparisons", { and: [{ var: "transfer.destination.inAddressBook" }, { "<=": [{ var: "transfer.amount" }, "1000"] }] }],
    ["velocity of a declared window", { "<=": [{ var: "velocity.daily_out.amountAfter" }, "5000"] }],
    ["count of a count window", { "<": [{ var: "velocity.hourly_count.countAfter" }, 10] }],
    ["var with a default", { var: ["tx.note", ""] }],
    ["numeric var index", { var: 0 }],
    ["scoped var inside some", { some: [{ var: "tx.designatedSigners" }, { "==": [{ var: "" }, "x"] }] }],
    ["scoped velocity-like path is element data", { map: [{ var: "list" }, { var: "velocity.anything" }] }],
    ["missing with literal keys", { missing: ["tx.note", "tx.externalId"] }],
    ["a literal looked for in text built by cat (a substring search on purpose)", { in: ["invoice", { cat: [{ var: "tx.note" }, " "] }] }],
    ["a fact looked for in a list if chooses, its condition built by cat", { in: [{ var: "k" }, { if: [{ cat: ["a"] }, ["a"], []] }] }],
    [
      "if / ?: / !! / cat / substr / merge / min / max / % / /",
      { if: [{ "!!": [1] }, { cat: [{ substr: ["abc", 1] }, "x"] }, { "?:": [{ "==": [{ "%": [{ "/": [4, 2] }, 2] }, 0] }, { max: [1, 2] }, { min: [{ merge: [[1], [2]] }] }] }] },
    ],
  ])("%s", (_name, expr) => {
    expect(validateLogic(expr, { path: "rules[0].when", windows })).toEqual([]);
  });
});

describe("validateLogic refuses", () => {
  it.each([
    ["unknown operation", { and: [true, { frob: [1] }] }, "rules[2].when.and[1].frob", /unknown operation "frob"/],
    ["method", { method: ["x", "toUpperCase"] }, "rules[2].when.method", /"method" operation is not allowed/],
    ["log", { log: 1 }, "rules[2].when.log", /"log" operation is not allowed/],
    ["var through __proto__", { and: [true, { "<=": [{ var: "tx.__proto__.x" }, 1] }] }, 'rules[2].when.and[1]["<="][0].var', /"__proto__"/],
    ["var through constructor", { var: "constructor" }, "rules[2].when.var", /"constructor"/],
    ["var through prototype (array form)", { var: ["a.prototype", 1] }, "rules[2].when.var[0]", /"prototype"/],
    ["computed var path", { var: { cat: ["tx.", "kind"] } }, "rules[2].when.var", /computed paths are not allowed/],
    ["computed var path in array form", { var: [{ var: "k" }] }, "rules[2].when.var[0]", /computed/],
    ["missing through __proto__", { missing: ["__proto__"] }, "rules[2].when.missing[0]", /"__proto__"/],
    ["missing_some through constructor", { missing_some: [1, ["a", "constructor"]] }, "rules[2].when.missing_some[1][1]", /"constructor"/],
    ["two keys in one object", { "==": [1, 1], "!=": [1, 2] }, "rules[2].when", /exactly one key/],
    ["empty object", { in: ["x", [{}]] }, "rules[2].when.in[1][0]", /empty object/],
    ["undeclared window", { "<": [{ var: "velocity.weekly.count" }, 1] }, 'rules[2].when["<"][0].var', /no declared window/],
    ["amount of a count window", { "<": [{ var: "velocity.hourly_count.amount" }, 1] }, 'rules[2].when["<"][0].var', /measures count/],
    ["unknown window field", { "<": [{ var: "velocity.daily_out.total" }, 1] }, 'rules[2].when["<"][0].var', /a window has/],
    ["wrong arity", { ">": [1, 2, 3] }, 'rules[2].when[">"]', /takes 2 arguments/],
    ["negative var index", { var: -1 }, "rules[2].when.var", /non-negative integer/],
    [
      "a fact looked for in a list built by cat",
      { in: [{ var: "transfer.destination.address" }, { cat: ["0.0.12345, ", "treasury.near"] }] },
      "rules[2].when.in[1]",
      /built by cat, which is searched as text.*write the list as an array/,
    ],
    ["a value looked for in text built by substr", { in: [{ var: "k" }, { substr: ["0.0.12345,treasury.near", 0] }] }, "rules[2].when.in[1]", /built by substr/],
    // The text chosen by if, ?:, or, and loaded.
    [
      "a fact looked for in a list built by cat that if chooses",
      { in: [{ var: "k" }, { if: [true, { cat: ["0.0.12345, ", "treasury.near"] }, []] }] },
      "rules[2].when.in[1]",
      /built by cat/,
    ],
    [
      "a fact looked for in a list built by cat that ?: chooses as its else",
      { in: [{ var: "k" }, { "?:": [{ var: "c" }, ["a"], { cat: ["0.0.12345, ", "treasury.near"] }] }] },
      "rules[2].when.in[1]",
      /built by cat/,
    ],
    [
      "a fact looked for in a list built by substr that or returns",
      { in: [{ var: "k" }, { or: [{ and: [{ substr: ["0.0.12345,treasury.near", 0] }] }] }] },
      "rules[2].when.in[1]",
      /built by substr/,
    ],
  ])("%s", (_name, expr, path, message) => {
    const problems = validateLogic(expr, { path: "rules[2].when", windows });
    expect(problems).toHaveLength(1);
    expect(problems[0]?.path).toBe(path);
    expect(problems[0]?.message).toMatch(message);
  });

  it("reports every problem, not just the first", () => {
    const problems = validateLogic({ and: [{ frob: 1 }, { var: "__proto__" }, { method: [] }] });
    expect(problems.map((p) => p.path)).toEqual(["and[0].frob", "and[1].var", "and[2].method"]);
  });

  it("skips the window check when no windows are given", () => {
    expect(validateLogic({ var: "velocity.weekly.count" })).toEqual([]);
  });
});

describe("validateLogic with the facts' shape: a path must name a fact", () => {
  const check = (expr: unknown) => validateLogic(expr, { path: "rules[0].when", windows, facts: FACTS_SHAPE });

  it.each([
    ["a transfer's destination address", { "==": [{ var: "transfer.destination.address" }, "0x1"] }],
    ["the address-book entry's display name", { var: "transfer.destination.addressBook.displayName" }],
    ["a list item by index", { var: "tx.payloads.0" }],
    ["an allowance's spender by index", { var: "tx.tokenAllowances.0.spender" }],
    ["the memo's data", { "===": [{ var: "tx.memo.data" }, "991"] }],
    ["the whole transfer", { var: "transfer" }],
    ["the review", { ">=": [{ var: "review.approvals" }, 2] }],
    ["the clock", { "<": [{ var: "nowHour" }, 18] }],
    ["a window", { var: "velocity.daily_out.amountAfter" }],
    ["items of a list of facts in some", { some: [{ var: "tx.tokenAllowances" }, { "==": [{ var: "spender" }, "0x1"] }] }],
    ["items of a list of values in all", { all: [{ var: "tx.payloads" }, { in: [{ var: "" }, ["evmMessage"]] }] }],
    ["reduce's current and accumulator", { reduce: [{ var: "tx.authorizations" }, { cat: [{ var: "accumulator" }, { var: "current.signer" }] }, ""] }],
    ["elements of a list the rule built are not checked", { some: [{ merge: [[1], [2]] }, { var: "anything" }] }],
    ["missing with fact paths", { missing: ["transfer.amount", "tx.note"] }],
  ])("accepts %s", (_name, expr) => {
    expect(check(expr)).toEqual([]);
  });

  it.each([
    [
      "a misspelt field",
      { in: [{ var: "transfer.destination.adress" }, ["0x1"]] },
      /"transfer\.destination\.adress" names no fact: transfer\.destination has value, kind, wallet, address, internal, muxedId, baseAccount, inAddressBook, addressBook/,
    ],
    ["a misspelt root", { "===": [{ var: "trasnfer.asset" }, "x"] }, /names no fact: the facts has now, nowHour/],
    ["a path past a value", { var: "transfer.amount.value" }, /transfer\.amount is a single value/],
    ["a field of a list", { var: "tx.tokenAllowances.spender" }, /tx\.tokenAllowances is a list/],
    [
      "a misspelt item field",
      { some: [{ var: "tx.tokenAllowances" }, { "==": [{ var: "spendr" }, "0x1"] }] },
      /"spendr" names no fact: each item of tx\.tokenAllowances has approver, spender, asset, amount/,
    ],
    [
      "a field of a list of values' item",
      { some: [{ var: "tx.payloads" }, { "==": [{ var: "name" }, "x"] }] },
      /"name" names no fact: each item of tx\.payloads is a single value/,
    ],
    [
      "a misspelt item field over a filtered list",
      { some: [{ filter: [{ var: "tx.tokenAllowances" }, true] }, { "==": [{ var: "spendr" }, "0x1"] }] },
      /"spendr" names no fact: each item of tx\.tokenAllowances has/,
    ],
    ["a misspelt path in missing", { missing: ["transfer.amout"] }, /"transfer\.amout" names no fact/],
    ["a var with a default still checked", { var: ["tx.nots", ""] }, /"tx\.nots" names no fact/],
  ])("refuses %s", (_name, expr, message) => {
    const problems = check(expr);
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toMatch(message);
  });

  // `===` and `in` compare types first: a fact and a literal of another type are never equal, so
  // a deny rule written so never denies (YAML reads an unquoted 12345 or 0 as a number).
  it.each([
    [
      "a muxed id against a number",
      { "===": [{ var: "transfer.destination.muxedId" }, 12345] },
      '["==="][1]',
      /transfer\.destination\.muxedId, which is text, with the number 12345: they are never equal \(write "12345"\)/,
    ],
    ["a number written first", { "===": [991, { var: "tx.memo.data" }] }, '["==="][0]', /tx\.memo\.data, which is text, with the number 991/],
    ["!== always true", { "!==": [{ var: "transfer.destination.muxedId" }, 7] }, '["!=="][1]', /they always differ \(write "7"\)/],
    [
      "a chain id in an authorization",
      { some: [{ var: "tx.authorizations" }, { "===": [{ var: "chainId" }, 0] }] },
      'some[1]["==="][1]',
      /chainId, which is text, with the number 0/,
    ],
    ["a muxed id in a list of numbers", { in: [{ var: "transfer.destination.muxedId" }, ["1", 2]] }, "in[1][1]", /muxedId, which is text, with the number 2/],
    ["a weekday in a list of texts", { in: [{ var: "nowWeekday" }, ["0", 6]] }, "in[1][0]", /nowWeekday, which is a number, with the text "0".*\(write 0\)/],
    ["a number in a list of texts", { in: [5, { var: "tx.payloads" }] }, "in[0]", /tx\.payloads\.0, which is text, with the number 5/],
    ["an item of a list of texts", { some: [{ var: "tx.designatedSigners" }, { "===": [{ var: "" }, 1] }] }, 'some[1]["==="][1]', /each item, which is text, with the number 1/],
    ["a flag against text under ==", { "==": [{ var: "transfer.destination.inAddressBook" }, "false"] }, '["=="][1]', /true or false, with the text "false".*\(write false\)/],
    ["a count against words under ==", { "==": [{ var: "velocity.hourly_count.count" }, "zero"] }, null, null],
    ["a number against words under !=", { "!=": [{ var: "nowHour" }, "noon"] }, '["!="][1]', /nowHour, which is a number, with the text "noon": they always differ$/],
    // A list written as one string is a list of text items
    // (string-lists.ts), where json-logic-js found the hour 1 in "9,10,11" as a digit of "10".
    [
      "a number fact in a list written as one string",
      { in: [{ var: "nowHour" }, "9,10,11"] },
      "in[1]",
      /nowHour, which is a number, among the items of the text "9,10,11", which are text: they are never equal \(write \[9, 10, 11\]\)/,
    ],
    ["a flag in a list written as one string", { in: [{ var: "transfer.destination.internal" }, "true"] }, "in[1]", /true or false, among the items .*\(write \[true\]\)/],
    ["a number looked for in a text fact", { in: [1, { var: "tx.note" }] }, "in[0]", /looks for the number 1 in tx\.note, which is text: it is never found \(write "1"\)/],
    // A list or object fact is compared with each item as a whole, never found.
    [
      "a list fact in a list",
      { in: [{ var: "tx.designatedSigners" }, ["users/a"]] },
      "in[0]",
      /"in" looks for tx\.designatedSigners, which is a list, as one item: it is never found \(to find any of its items, write \{"some": \[\{"var": "tx\.designatedSigners"\}, \{"in": \[\{"var": ""\}, …\]\}\]\}\)/,
    ],
    ["a list fact in a list written as one string", { in: [{ var: "tx.payloads" }, "evmMessage, evmCall"] }, "in[0]", /tx\.payloads, which is a list, as one item/],
    [
      "an object fact in a list",
      { in: [{ var: "tx.memo" }, ["991"]] },
      "in[0]",
      /tx\.memo, which is an object, as one item: it is never found \(read one of its fields \(type, data\)\)/,
    ],
    ["an object item in a list", { some: [{ var: "tx.authorizations" }, { in: [{ var: "" }, ["0xabc"]] }] }, "some[1].in[0]", /each item, which is an object, as one item/],
  ])("refuses %s", (_name, expr, at, message) => {
    const problems = check(expr);
    if (at === null) return expect(problems).toEqual([]); // velocity is checked against the windows, not typed here
    expect(problems).toHaveLength(1);
    expect(problems[0]?.path).toBe(`rules[0].when${at.startsWith("[") ? "" : "."}${at}`);
    expect(problems[0]?.message).toMatch(message);
  });

  it.each([
    ["== reads numeric text as a number", { "==": [{ var: "transfer.destination.muxedId" }, 12345] }],
    ["a number fact against numeric text under ==", { "==": [{ var: "nowWeekday" }, "6"] }],
    ["null", { "===": [{ var: "transfer.destination.muxedId" }, null] }],
    ["the same type", { in: [{ var: "nowWeekday" }, [0, 6]] }],
    ["a var with a default of its own", { "===": [{ var: ["transfer.destination.muxedId", 0] }, 0] }],
    ["two facts", { "===": [{ var: "transfer.destination.muxedId" }, { var: "tx.memo.data" }] }],
    ["an object fact", { "==": [{ var: "tx.payloads" }, "evmMessage"] }],
    ["an item of a list the rule built", { some: [[1, 2], { "===": [{ var: "" }, "1"] }] }],
    ["a text fact in a list written as one string", { in: [{ var: "transfer.destination.address" }, "0.0.12345, treasury.near"] }],
    ["text looked for in a text fact", { in: ["invoice", { var: "tx.note" }] }],
  ])("accepts %s", (_name, expr) => {
    expect(check(expr)).toEqual([]);
  });

  it("types each fact as the facts builder writes it", () => {
    for (const facts of builtFacts()) {
      for (const path of leafPaths(facts).filter((p) => !p.startsWith("velocity"))) {
        const value = path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], facts);
        const reading = readFactPath(FACTS_SHAPE, path.replace(/\.[0-9]+(?=\.|$)/g, ".0"));
        const declared = "shape" in reading && reading.shape.kind === "value" ? reading.shape.type : "not a value";
        if (value !== null && !(Array.isArray(value) && value.length === 0)) expect([path, typeof value]).toEqual([path, declared]);
      }
    }
  });

  it("accepts every path the facts builder writes, and names no fact it never writes", () => {
    const written = new Set(builtFacts().flatMap((facts) => leafPaths(facts)));
    for (const path of written) expect([path, check({ var: path })]).toEqual([path, []]);
    const byIndex0 = new Set([...written].map((p) => p.replace(/\.[0-9]+(?=\.|$)/g, ".0")));
    const shaped = shapeLeaves(FACTS_SHAPE).filter((p) => !p.startsWith("velocity"));
    expect(shaped.filter((p) => !byIndex0.has(p))).toEqual([]);
  });
});

/** Facts of every example body, each destination in the address book, with a review and a window. */
function builtFacts() {
  const daily = { name: "daily_out", duration: "24h", durationSeconds: 86_400, groupBy: ["sourceWallet", "asset"] as ["sourceWallet", "asset"], measure: "amount" as const };
  const review = { state: "approved" as const, approvals: 1, approvers: ["a@x.io"] };
  const withAuthorization = apiBody([apiTransfer()], {
    evmTransaction: {
      authorizationDetails: { authorizationList: [{ signer: { value: EVM_DEST }, contractAddress: { value: EVM_DEST }, chainId: "1", nonce: "7" }] },
      fee: { gasLimit: "21000", maxFeePerGas: "0x6fc23ac00" },
    },
  });
  const withMemo = assetTransferBody({ stellarOptions: { memo: { type: "ID", data: "7" } } });
  return [...EXAMPLES.map(example), withAuthorization, withMemo].flatMap((body) => {
    const parsed = tx(body);
    const entries = parsed.transfers.flatMap((t) => (t.destination.address === null ? [] : [{ address: t.destination.address, network: t.network ?? "" }]));
    return buildFacts({ tx: parsed, now: new Date("2026-11-21T12:00:00Z"), addressBook: view({ entries }), windows: [daily], totals: new Map(), review });
  });
}

/** Every path to a value in a shape, list items as index 0. */
function shapeLeaves(shape: FactShape, prefix = ""): string[] {
  const join = (k: string) => (prefix === "" ? k : `${prefix}.${k}`);
  if (shape.kind === "object") return Object.entries(shape.fields).flatMap(([k, v]) => shapeLeaves(v, join(k)));
  if (shape.kind === "list") return shapeLeaves(shape.items, join("0"));
  return [prefix];
}

/** Every path to a value in a document, lists by index. */
function leafPaths(node: unknown, prefix = ""): string[] {
  if (typeof node !== "object" || node === null) return [prefix];
  const entries = Array.isArray(node) ? node.map((v, i) => [String(i), v] as const) : Object.entries(node);
  return entries.flatMap(([k, v]) => leafPaths(v, prefix === "" ? k : `${prefix}.${k}`));
}

describe("validateLogic: an arithmetic result, exact decimal text, where JsonLogic's number would differ", () => {
  const sum = { "+": [{ var: "transfer.index" }, 1] };
  const over100 = { "-": [{ var: "a" }, "100"] };
  // Each refusal beside what the rule writes instead, which loads as a rule's condition.
  it.each([
    ["=== against a number", { "===": [sum, 1] }, 'rules[2].when["==="][0]["+"]', /"===" compares types and spelling.*use "=="/, { "==": [sum, 1] }],
    ["!== with the result second", { "!==": [1, { "*": [2, 3] }] }, 'rules[2].when["!=="][1]["*"]', /use "!="/, { "!=": [1, { "*": [2, 3] }] }],
    ["in looking for it", { in: [{ "-": [5, 1] }, [4]] }, 'rules[2].when.in[0]["-"]', /"in" compares types and spelling/, { "==": [{ "-": [5, 1] }, 4] }],
    ["in a listed item", { in: [{ var: "k" }, [{ "+": [1, 1] }]] }, 'rules[2].when.in[1][0]["+"]', /"in" compares/, { "==": [{ var: "k" }, { "+": [1, 1] }] }],
    ["if's condition", { if: [over100, true, false] }, 'rules[2].when.if[0]["-"]', /read here as true or false/, { if: [{ ">": [over100, 0] }, true, false] }],
    [
      "! of a single operand",
      { "!": { "%": [{ var: "a" }, 2] } },
      'rules[2].when["!"]["%"]',
      /result of "%" is read here as true or false/,
      { "==": [{ "%": [{ var: "a" }, 2] }, 0] },
    ],
    ["!!", { "!!": [{ max: [1, 2] }] }, 'rules[2].when["!!"][0].max', /true even when it is "0"/, { "!=": [{ max: [1, 2] }, 0] }],
    ["and's first operand", { and: [{ "/": [4, 2] }, true] }, 'rules[2].when.and[0]["/"]', /true or false/, { and: [{ ">": [{ "/": [4, 2] }, 1] }, true] }],
    ["or's first operand", { or: [{ min: [1] }, false] }, "rules[2].when.or[0].min", /true or false/, { or: [{ "==": [{ min: [1] }, 1] }, false] }],
    ["?:'s condition", { "?:": [{ "+": ["0"] }, 1, 2] }, 'rules[2].when["?:"][0]["+"]', /true or false/, { "==": [{ "?:": [{ "!=": [{ "+": ["0"] }, 0] }, 1, 2] }, 2] }],
    [
      "some's predicate",
      { some: [{ var: "list" }, { "-": [{ var: "" }, 1] }] },
      'rules[2].when.some[1]["-"]',
      /true or false/,
      { some: [{ var: "list" }, { "!=": [{ var: "" }, 1] }] },
    ],
    [
      "filter's predicate",
      { filter: [{ var: "list" }, { "%": [{ var: "" }, 2] }] },
      'rules[2].when.filter[1]["%"]',
      /true or false/,
      { filter: [{ var: "list" }, { "==": [{ "%": [{ var: "" }, 2] }, 1] }] },
    ],
    [
      "a result an if passes to !",
      { "!": [{ if: [{ var: "c" }, { "+": [1, 2] }, 0] }] },
      'rules[2].when["!"][0].if[1]["+"]',
      /true or false/,
      { "<": [{ if: [{ var: "c" }, { "+": [1, 2] }, 0] }, 5] },
    ],
    [
      "and's last operand read by if",
      { if: [{ and: [true, { "-": [1, 1] }] }, 1, 2] },
      'rules[2].when.if[0].and[1]["-"]',
      /true or false/,
      { if: [{ and: [true, { "==": [{ "-": [1, 1] }, 0] }] }, 1, 2] },
    ],
    [
      "what reduce sums, compared by ===",
      { "===": [{ reduce: [{ var: "list" }, { "+": [{ var: "current" }, { var: "accumulator" }] }, 0] }, 6] },
      'rules[2].when["==="][0].reduce[1]["+"]',
      /"===" compares/,
      { "==": [{ reduce: [{ var: "list" }, { "+": [{ var: "current" }, { var: "accumulator" }] }, 0] }, 6] },
    ],
  ])("refuses %s, and loads the comparison written instead", (_name, expr, path, message, instead) => {
    const problems = validateLogic(expr, { path: "rules[2].when" });
    expect(problems).toHaveLength(1);
    expect(problems[0]?.path).toBe(path);
    expect(problems[0]?.message).toMatch(message);
    expect(validateLogic(instead, { path: "rules[2].when", condition: true })).toEqual([]);
  });

  it("refuses it as a rule's whole condition, and allows it as a value", () => {
    const difference = { "-": [{ var: "transfer.amount" }, "100"] };
    expect(validateLogic(difference, { path: "rules[2].when", condition: true })).toEqual([
      { path: 'rules[2].when["-"]', message: expect.stringMatching(/result of "-" is read here as true or false/) },
    ]);
    expect(validateLogic(difference, { path: "rules[2].when" })).toEqual([]);
    expect(validateLogic({ map: [{ var: "list" }, { "*": [{ var: "" }, 2] }] }, { path: "rules[2].when" })).toEqual([]);
  });
});
