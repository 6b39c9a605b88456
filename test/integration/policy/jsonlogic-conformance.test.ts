/**
 * JsonLogic's official conformance suite (a pinned copy: test/fixtures/jsonlogic/README.md)
 * through countersign's own loader and evaluator. Every case gives JsonLogic's value or is refused
 * at load (fail closed); the one difference allowed is `in` over a string written in the rule,
 * which is membership, never substring, as docs/policies.md says (DOCUMENTED_IN below).
 *
 * Why this entry point is the real one: a bundle's rule is loaded by load.ts, which runs
 * validateLogic on its `when` with the facts' shape and reads it as a condition, and evaluated by
 * evaluate.ts as truthy(applyLogic(when, facts)). The suite's data are not countersign facts: the
 * facts' shape, which only narrows `var` paths to facts that exist, would refuse every path it reads
 * ("a", "integers"). So each case makes the same calls without that shape: validateLogic (the
 * loader's check) then applyLogic (the evaluator, which validates again before it evaluates). It
 * runs twice: as a value, which the suite states, and as a rule's `when` (validateLogic with
 * `condition`, as load.ts calls it, then applyLogic with "condition" and truthy, as evaluate.ts
 * does), where its truth must be that of JsonLogic's value.
 *
 * `+ - * / % min max` give their exact decimal as text (docs/policies.md), so where JsonLogic gives a number,
 * text of the same decimal is the same value. The traps that spelling would set (a strict
 * comparison, a condition reading it) are what loading refuses.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isNumericLike, toDecimal } from "../../../src/core/policy/decimal.js";
import { applyLogic, truthy } from "../../../src/core/policy/decimal-logic.js";
import { validateLogic } from "../../../src/core/policy/validate-logic.js";
import { DOCS } from "../../support/docs.js";

const SUITE = path.resolve(import.meta.dirname, "../../fixtures/jsonlogic/tests.json");
const SUITE_SHA256 = "3f2ef4252eb0285e5e0105b2c2fc14155d6e691519ecf46a4591c6f480587c31";

/** docs/policies.md's words for the one difference: `in` over a string written in the rule is membership. */
const DOCUMENTED_IN = "A value is in such a list only when it is one of its items, compared as an array's items are — never when it is part of one";

/**
 * The cases refused at load as values, each failing closed where JsonLogic's meaning cannot be
 * kept, in the suite's order; a new refusal fails this test rather than pass as "refused".
 */
const REFUSED_AT_LOAD = [
  // `+` gives "0", exact decimal text, which `===` never finds equal to the number 0
  '{"===":[0,{"+":"0"}]}',
  // `+` read as a condition: "0" is true where 0 is false
  '{"if":[{"+":"0"},"apple","banana"]}',
  '{"if":[{"+":"1"},"apple","banana"]}',
  // a computed `var` path: paths are literal, so loading can check each one names a fact
  '{"var":[{"?:":[{"<":[{"var":"temp"},110]},"pie.filling","pie.eta"]}]}',
  // `%` read as the predicate of `filter`: "0" is true where 0 is false
  '{"filter":[{"var":"integers"},{"%":[{"var":""},2]}]}',
];

type Case = [rule: unknown, data: unknown, expected: unknown];

function suiteCases(): Case[] {
  const bytes = readFileSync(SUITE);
  const digest = createHash("sha256").update(bytes).digest("hex");
  if (digest !== SUITE_SHA256) throw new Error(`${SUITE} has sha256 ${digest}, not the pinned ${SUITE_SHA256}`);
  return (JSON.parse(bytes.toString("utf8")) as unknown[]).filter((item): item is Case => Array.isArray(item));
}

/** JsonLogic's value: equal as JSON, except that exact decimal text stands for the number it spells. */
function sameValue(actual: unknown, expected: unknown): boolean {
  if (typeof expected === "number" && typeof actual === "string") return isNumericLike(actual) && toDecimal(actual).eq(toDecimal(expected));
  if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((item, i) => sameValue(actual[i], item));
  if (typeof expected === "object" && expected !== null) return JSON.stringify(actual) === JSON.stringify(expected);
  return Object.is(actual, expected);
}

/** `{"in": [needle, "a string written in the rule"]}`: membership of its items here, a substring in JsonLogic. */
function isInOverWrittenString(rule: unknown): boolean {
  if (typeof rule !== "object" || rule === null || !("in" in rule)) return false;
  const args = rule.in;
  return Array.isArray(args) && typeof args[1] === "string";
}

type Outcome = { kind: "refused"; why: string } | { kind: "value"; value: unknown } | { kind: "error"; why: string };

function run(rule: unknown, data: unknown, condition: boolean): Outcome {
  const problem = validateLogic(rule, { path: "case", condition })[0];
  if (problem) return { kind: "refused", why: `${problem.path}: ${problem.message}` };
  try {
    const value = applyLogic(rule, data, condition ? "condition" : "value");
    return { kind: "value", value: condition ? truthy(value) : value };
  } catch (error) {
    return { kind: "error", why: error instanceof Error ? error.message : String(error) };
  }
}

describe("JsonLogic's official suite through the loader and evaluator", () => {
  const cases = suiteCases();

  it("gives each case JsonLogic's value or refuses it at load; only `in` over a written string differs, as documented", () => {
    const counts = { equal: 0, refused: 0, documented: 0 };
    const refused: string[] = [];
    const conditions = { sameTruth: 0, refused: 0 };
    const wrong: string[] = [];
    for (const [rule, data, expected] of cases) {
      const name = JSON.stringify(rule);
      const asValue = run(rule, data, false);
      if (asValue.kind === "refused") refused.push(name);
      else if (asValue.kind === "value" && sameValue(asValue.value, expected)) counts.equal++;
      else if (asValue.kind === "value" && isInOverWrittenString(rule)) counts.documented++;
      else wrong.push(`${name} with ${JSON.stringify(data)}: JsonLogic gives ${JSON.stringify(expected)}, countersign ${JSON.stringify(asValue)}`);

      const asCondition = run(rule, data, true);
      if (asCondition.kind === "refused") conditions.refused++;
      else if (asCondition.kind === "value" && asCondition.value === truthy(expected)) conditions.sameTruth++;
      else if (!isInOverWrittenString(rule))
        wrong.push(`${name} with ${JSON.stringify(data)} as a condition: JsonLogic reads ${truthy(expected)}, countersign ${JSON.stringify(asCondition)}`);
    }
    counts.refused = refused.length;
    console.log(
      `jsonlogic conformance: ${cases.length} cases, ${counts.equal} equal, ${counts.refused} refused at load, ${counts.documented} documented difference (in over a string is membership); ` +
        `as a rule's condition: ${conditions.sameTruth} same truth, ${conditions.refused} refused at load`,
    );
    expect(wrong).toEqual([]);
    expect(refused).toEqual(REFUSED_AT_LOAD);
    expect(cases).toHaveLength(277);
    expect(counts.equal + counts.refused + counts.documented).toBe(277);
    expect(counts.documented).toBe(1);
    expect(DOCS.replace(/\s+/g, " ")).toContain(DOCUMENTED_IN);
  });
});
