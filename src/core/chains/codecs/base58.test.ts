import { describe, expect, it } from "vitest";
import { base58CheckEncode, base58Decode, base58Encode } from "./base58.js";

const hex = (bytes: Uint8Array | null): string | null => (bytes === null ? null : Buffer.from(bytes).toString("hex"));

/** Bitcoin Core's base58_encode_decode.json: bytes in hex and their base58. */
const VECTORS: [string, string][] = [
  ["", ""],
  ["61", "2g"],
  ["626262", "a3gV"],
  ["636363", "aPEr"],
  ["73696d706c792061206c6f6e6720737472696e67", "2cFupjhnEsSn59qHXstmK2ffpLv2"],
  ["00eb15231dfceb60925886b67d065299925915aeb172c06647", "1NS17iag9jJgTHD1VXjvLCEnZuQ3rJDE9L"],
  ["516b6fcd0f", "ABnLTmg"],
  ["bf4f89001e670274dd", "3SEo3LWLoPntC"],
  ["572e4794", "3EFU7m"],
  ["ecac89cad93923c02321", "EJDM8drfXA6uyA"],
  ["10c8511e", "Rt5zm"],
  ["00000000000000000000", "1111111111"],
];

describe("base58 in Bitcoin's alphabet", () => {
  it.each(VECTORS)("%s is %s both ways", (bytes, text) => {
    expect(base58Encode(Buffer.from(bytes, "hex"))).toBe(text);
    expect(hex(base58Decode(text))).toBe(bytes);
  });

  // Letters Bitcoin's alphabet leaves out because they look like others (0 O I l), and any other character.
  it.each(["1O0l", "0", "O", "I", "l", "3SEo3LWLoPnt0", "2g ", "a3g+", "EJDM8drfXA6uy\u0410"])("%j is refused, not read as some other number", (text) => {
    expect(base58Decode(text)).toBeNull();
  });
});

describe("Base58Check", () => {
  const cases: [string, string, string][] = [
    ["a Bitcoin address (the Bitcoin wiki's worked example)", "00010966776006953d5567439e5e39f86a0d273bee", "16UwLL9Risc3QfPqBUvKofHmBQ7wMtjvM"],
    ["a Tron address (USDT's contract)", "41a614f803b6fd780986a42c78ec9c7f77e6ded13c", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"],
  ];
  it.each(cases)("%s", (_what, payload, text) => expect(base58CheckEncode(Buffer.from(payload, "hex"))).toBe(text));
});
