import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AppError } from "../core/errors.js";
import { parseJsonBody } from "./json-body.js";

const parse = (text: string) => parseJsonBody(Buffer.from(text, "utf8"));
const refusal = (text: string): string | null => {
  try {
    parse(text);
    return null;
  } catch (error) {
    return error instanceof AppError ? error.message : String(error);
  }
};

describe("parseJsonBody: one reading only", () => {
  it.each([
    ['{"a":1,"a":2}', /a key twice/],
    ['{"a":1, "b": {"c": "x", "c" : "y"}}', /a key twice/],
    ['[{"k":1},{"k":1,"k":1}]', /a key twice/],
    ['{"a":1,"\\u0061":2}', /a key twice/],
    ['{"a":1e400}', /too large to read/],
    ['{"a":-1e400}', /too large to read/],
    ['{"a":123456789012345678901}', /beyond 2\^53/],
    ['{"a":9007199254740993}', /beyond 2\^53/],
  ])("refuses %s", (text, message) => {
    expect(refusal(text)).toMatch(message);
  });

  it.each([
    '{"a":"x\\":","b":"\\\\","c":"\\\\\\":"}',
    '{"quote \\" colon":"\\":", "k": [":", "\\"", {"inner": ":"}]}',
    '{ "a" : 1 , "b"\n:\t2 }',
    '{"a":9007199254740991,"b":-9007199254740991,"c":1e-7,"d":0.1}',
    '{"a":{},"b":[],"c":[{}],"":""}',
  ])("accepts %s", (text) => {
    expect(refusal(text)).toBeNull();
  });

  it("accepts any JSON.stringify output, and refuses it with one key repeated", () => {
    // Without what is refused for other reasons: NUL, lone surrogates, a __proto__ key.
    const safeJson = fc.jsonValue({ maxDepth: 6 }).filter((v) => !/\\u0000|\\ud[89a-f]|"__proto__"/i.test(JSON.stringify(v)));
    fc.assert(
      fc.property(safeJson, fc.constantFrom(0, 2), (value, indent) => {
        const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === "number" && Math.abs(v) > Number.MAX_SAFE_INTEGER ? 0 : v), indent);
        expect(refusal(text)).toBeNull();
        const withTwin = text.replace(/^\{("(?:[^"\\]|\\.)*")\s*:\s*/, (_m, key: string) => `{${key}:null,${key}:`);
        if (withTwin !== text) expect(refusal(withTwin)).toMatch(/a key twice/);
      }),
      { numRuns: 2_000 },
    );
  });
});
