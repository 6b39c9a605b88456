import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CENSOR, redactSecrets, SECRET_FIELDS } from "./log-redaction.js";

/** Every secret-named field within `depth` levels below `value`, as [path, value]. */
function secretsWithin(value: unknown, depth: number, path = ""): [string, unknown][] {
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, field]) => [
    ...(SECRET_FIELDS.includes(key) ? [[`${path}.${key}`, field] as [string, unknown]] : []),
    ...(depth > 0 ? secretsWithin(field, depth - 1, `${path}.${key}`) : []),
  ]);
}

describe("log redaction", () => {
  it("passes a line with nothing to hide on as the same object", () => {
    const fields = { requestId: "r1", transaction: "vaults/v/transactions/t", decision: "allow", nested: { vault: "v", items: [1, 2] } };
    expect(redactSecrets(fields)).toBe(fields);
  });

  it("censors secret fields at the top level and two levels down, without touching the caller's objects", () => {
    const fields = {
      token: "t0ken",
      headers: { authorization: "Bearer t0ken", "x-service-signature": "c2ln" },
      req: { method: "POST", headers: { cookie: "session=t0ken", accept: "*/*" } },
      items: [{ body: { amount: "1" } }],
      keep: "visible",
    };
    const before = structuredClone(fields);
    const redacted = redactSecrets(fields);
    expect(redacted).toEqual({
      token: CENSOR,
      headers: { authorization: CENSOR, "x-service-signature": CENSOR },
      req: { method: "POST", headers: { cookie: CENSOR, accept: "*/*" } },
      items: [{ body: CENSOR }],
      keep: "visible",
    });
    expect(fields).toEqual(before);
    expect(JSON.stringify(redacted)).not.toMatch(/t0ken|c2ln|amount/);
  });

  it("leaves no secret-named field uncensored within two levels, for any line", () => {
    const key = fc.oneof(fc.constantFrom(...SECRET_FIELDS), fc.string({ maxLength: 6 }));
    const line = fc.dictionary(key, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 });
    fc.assert(
      fc.property(line, (fields) => {
        const before = JSON.stringify(fields);
        const redacted = redactSecrets(fields);
        expect(JSON.stringify(fields)).toBe(before);
        for (const [, value] of secretsWithin(redacted, 2)) expect(value).toBe(CENSOR);
        if (secretsWithin(fields, 2).length === 0) expect(redacted).toBe(fields);
      }),
    );
  });
});
