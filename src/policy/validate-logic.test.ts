import { describe, expect, it } from "vitest";
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
    ["if / ?: / !! / cat / substr / merge / min / max / % / /", { if: [{ "!!": [1] }, { cat: [{ substr: ["abc", 1] }, "x"] }, { "?:": [{ "%": [{ "/": [4, 2] }, 2] }, { max: [1, 2] }, { min: [{ merge: [[1], [2]] }] }] }] }],
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
