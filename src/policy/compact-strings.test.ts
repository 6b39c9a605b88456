import { serialize } from "node:v8";
import { describe, expect, it } from "vitest";
import { compactString } from "./compact-strings.js";
import { parsePolicyDocument } from "./policy-document.js";

/** V8's serializer tags a string by its form: '"' one-byte, 'c' two-byte. */
const form = (text: string): "one-byte" | "two-byte" => {
  const tag = serialize(text)[2];
  if (tag === 0x22) return "one-byte";
  if (tag === 0x63) return "two-byte";
  throw new Error(`unexpected tag ${tag}`);
};

describe("the policy document's strings", () => {
  const yaml = ["description: Treasury — hot wallets", "windows:", "  - name: daily_out", "    by: [sourceWallet]", ""].join("\n");

  it("are one-byte where their characters allow, even when the file holds a character beyond Latin-1", () => {
    const parsed = parsePolicyDocument("policy.yaml", Buffer.from(yaml));
    const doc = parsed.value as { description: string; windows: { name: string; by: string[] }[] };
    expect(doc.windows[0]).toEqual({ name: "daily_out", by: ["sourceWallet"] });
    expect(form(doc.windows[0]!.name)).toBe("one-byte");
    expect(form(doc.windows[0]!.by[0]!)).toBe("one-byte");
    expect(form(Object.keys(doc.windows[0]!)[0]!)).toBe("one-byte");
    expect(doc.description).toBe("Treasury — hot wallets");
  });

  it("from a JSON file too", () => {
    const parsed = parsePolicyDocument("policy.json", Buffer.from(JSON.stringify({ description: "a → b", version: "1" })));
    expect(form((parsed.value as { version: string }).version)).toBe("one-byte");
  });

  it("keep their characters: Latin-1 letters stay, text beyond it is left as it is", () => {
    const twoByteSlice = "Zürich — daily".slice(0, 6);
    expect(form(twoByteSlice)).toBe("two-byte");
    expect(compactString(twoByteSlice)).toBe("Zürich");
    expect(form(compactString(twoByteSlice))).toBe("one-byte");
    expect(compactString("a → b")).toBe("a → b");
  });
});
