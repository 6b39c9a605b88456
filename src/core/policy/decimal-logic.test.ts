import { describe, expect, it } from "vitest";
import { LogicError, applyLogic, truthy } from "./decimal-logic.js";
import jsonLogic from "json-logic-js";

describe("applyLogic: exact decimals", () => {
  it.each([
    ["numeric strings compare as numbers", { ">": ["10", "9"] }, true],
    ["0.1 + 0.2 == 0.3", { "==": [{ "+": ["0.1", "0.2"] }, "0.3"] }, true],
    ["number literal 0.3 is the decimal 0.3", { "==": [{ "+": ["0.1", "0.2"] }, 0.3] }, true],
    ["one smallest unit over an 18-decimal limit", { "<=": ["1000.000000000000000001", "1000"] }, false],
    ["exactly at an 18-decimal limit", { "<=": ["1000.000000000000000000", "1000"] }, true],
    ["18-decimal strict less", { "<": ["999.999999999999999999", 1000] }, true],
    ["equal with different trailing zeros", { "==": ["1.50", 1.5] }, true],
    ["!= on decimals", { "!=": ["1.50", "1.5"] }, false],
    [">= equal", { ">=": ["5", "5.0"] }, true],
    ["between, inside", { "<": [1, "2", 3] }, true],
    ["between, outside", { "<": [1, "5", 3] }, false],
    ["between inclusive", { "<=": [1, "3", 3] }, true],
    ["sum", { "+": ["1000000000000000000000", "0.000000000000000001"] }, "1000000000000000000000.000000000000000001"],
    ["empty sum", { "+": [] }, "0"],
    ["difference", { "-": ["0.3", "0.1"] }, "0.2"],
    ["negation", { "-": ["5"] }, "-5"],
    ["product", { "*": ["0.1", "3"] }, "0.3"],
    ["zero product is not negative zero", { "*": ["-1", 0] }, "0"],
    ["strings compare by equality", { "==": ["assetTransfer", "assetTransfer"] }, true],
    ["a number never equals a non-number", { "==": ["", 0] }, false],
    ["booleans keep json-logic equality", { "==": [true, true] }, true],
    ["=== stays strict", { "===": ["1", 1] }, false],
    ["0.3 / 0.1 is 3", { "/": [0.3, 0.1] }, "3"],
    ["a quotient compares as its number", { "==": [{ "/": ["0.3", "0.1"] }, 3] }, true],
    ["an 18-decimal amount halved", { "/": ["1.000000000000000001", 2] }, "0.5000000000000000005"],
    ["a 24-decimal amount divided by 1024", { "/": ["1.000000000000000000000001", 1024] }, "0.0009765625000000000000000009765625"],
    ["a remainder on decimals", { "%": ["0.3", "0.1"] }, "0"],
    ["a remainder keeps the dividend's sign", { "%": [-7, 2] }, "-1"],
    ["a remainder of a decimal", { "%": ["10.5", 3] }, "1.5"],
    ["max tells apart what a double cannot", { max: ["1000000000000000000000", "1000000000000000000000.000000000000000001"] }, "1000000000000000000000.000000000000000001"],
    ["min of numbers and numeric text", { min: [3, "0.10", 0.2] }, "0.1"],
    ["max of one", { max: ["-5"] }, "-5"],
  ])("%s", (_name, expr, expected) => {
    expect(applyLogic(expr, {})).toEqual(expected);
  });
});

describe("applyLogic: errors instead of silent coercions", () => {
  it.each([
    ["missing operand in <", { "<": [{ var: "missing" }, 100] }, /"<" got null/],
    ["null literal in ==", { "==": [null, 0] }, /"==" got null/],
    ["missing operand in !=", { "!=": [{ var: "nope" }, "x"] }, /"!=" got null/],
    ["missing operand in +", { "+": [{ var: "nope" }, 1] }, /"\+" got null/],
    ["non-numeric string in >", { ">": ["abc", 1] }, /">" needs a number, got the string "abc"/],
    ["exponent notation is not numeric", { "<": ["1e3", 1] }, /needs a number/],
    ["boolean in arithmetic", { "*": [true, 2] }, /needs a number, got true/],
    ["too many arguments to >", { ">": [3, 2, 1] }, /takes 2 arguments/],
    ["division by zero", { "/": [1, "0.0"] }, /"\/" divides by zero/],
    ["remainder by zero", { "%": [1, 0] }, /"%" divides by zero/],
    ["a quotient without an exact decimal", { "/": [1, 3] }, /"\/" has no exact quotient within 50 decimal places/],
    ["a quotient needing more than 50 places", { "/": [1, "1" + "0".repeat(50) + "24"] }, /no exact quotient/],
    ["min of nothing", { min: [] }, /"min" takes at least 1 arguments/],
    ["a missing operand in max", { max: [1, { var: "nope" }] }, /"max" got null/],
    ["text in min", { min: ["abc", 1] }, /"min" needs a number/],
    ["an arithmetic result in ===", { "===": [{ "+": [1] }, 1] }, /"===" compares types and spelling/],
    ["method is refused", { method: ["abc", "toUpperCase"] }, /"method" operation is not allowed/],
    ["log is refused", { log: "x" }, /"log" operation is not allowed/],
    ["unknown operation", { frobnicate: [1] }, /unknown operation "frobnicate"/],
    ["dotted operation name", { "var.prototype.constructor": ["x"] }, /unknown operation/],
    ["var through constructor", { var: "tx.constructor" }, /not allowed/],
    ["var through __proto__", { var: "__proto__" }, /not allowed/],
  ])("%s", (_name, expr, message) => {
    expect(() => applyLogic(expr, { tx: {} })).toThrow(LogicError);
    expect(() => applyLogic(expr, { tx: {} })).toThrow(message);
  });

  it("installs the exact operations globally, so a direct json-logic-js call gets them too", () => {
    expect(jsonLogic.apply({ ">": ["10", "9"] })).toBe(true);
  });
});

describe("applyLogic: var reads only JSON data", () => {
  const data = { tx: { kind: "assetTransfer", signers: ["a", "b"] }, n: null };
  it.each([
    ["own property", { var: "tx.kind" }, "assetTransfer"],
    ["array index", { var: "tx.signers.1" }, "b"],
    ["array length is not data", { var: "tx.signers.length" }, null],
    ["inherited method is not data", { var: "tx.toString" }, null],
    ["inherited hasOwnProperty is not data", { var: "hasOwnProperty" }, null],
    ["default when absent", { var: ["tx.note", "none"] }, "none"],
    ["present null is kept", { var: ["n", "none"] }, null],
    ["empty path is the data", { var: "" }, data],
    ["missing lists absent keys", { missing: ["tx.kind", "tx.note"] }, ["tx.note"]],
    ["scoped var over elements", { map: [{ var: "tx.signers" }, { cat: [{ var: "" }, "!"] }] }, ["a!", "b!"]],
    ["reduce with exact sums", { reduce: [["0.1", "0.2"], { "+": [{ var: "current" }, { var: "accumulator" }] }, "0"] }, "0.3"],
  ])("%s", (_name, expr, expected) => {
    expect(applyLogic(expr, data)).toEqual(expected);
  });

  it("does not invoke getters", () => {
    let called = false;
    const facts = Object.defineProperty({}, "secret", { get: () => ((called = true), "x"), enumerable: true });
    expect(applyLogic({ var: "secret" }, facts)).toBeNull();
    expect(called).toBe(false);
  });

  it("does not walk into class instances", () => {
    expect(applyLogic({ var: "d.getTime" }, { d: new Date(0) })).toBeNull();
  });
});

describe("truthy", () => {
  it.each([
    [[], false],
    [[0], true],
    ["", false],
    ["0", true],
    [0, false],
    [null, false],
    [{}, true],
  ])("%j -> %s", (value, expected) => {
    expect(truthy(value)).toBe(expected);
  });
});

describe("applyLogic: validation of unfrozen expressions", () => {
  it("re-validates an expression that can still change", () => {
    const expr: Record<string, unknown> = { "==": [1, 1] };
    expect(applyLogic(expr, {})).toBe(true);
    delete expr["=="];
    expr.method = ["x", "toUpperCase"];
    expect(() => applyLogic(expr, {})).toThrow(/"method" operation is not allowed/);
  });
});

describe("applyLogic: a rule's condition", () => {
  it("refuses an arithmetic result read as the whole condition, which it evaluates as a value", () => {
    expect(applyLogic({ "-": ["1", 1] }, {})).toBe("0");
    expect(() => applyLogic({ "-": ["1", 1] }, {}, "condition")).toThrow(/invalid expression at \["-"\]: the result of "-" is read here as true or false/);
  });
});
