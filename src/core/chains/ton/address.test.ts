import { Address, crc16 } from "@ton/core";
import { describe, expect, it } from "vitest";
import { tonAccount, tonBounceable } from "./address.js";

/** Raw addresses: the TON documentation's example, a masterchain account, one whose base64 holds `+` and `/`. */
const ACCOUNTS = ["0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8", `-1:${"3".repeat(64)}`, `0:${"fbff".repeat(16)}`];

/** Every user-friendly spelling @ton/core writes: bounceable or not, test-only or not, base64url or base64. */
const FLAGS = [true, false].flatMap((bounceable) => [true, false].flatMap((testOnly) => [true, false].map((urlSafe) => ({ bounceable, testOnly, urlSafe }))));

const spellings: [string, string][] = ACCOUNTS.flatMap((raw) => {
  const address = Address.parseRaw(raw);
  return [
    [`${raw} raw`, raw],
    [`${raw} raw, hex in capitals`, raw.toUpperCase()],
    ...FLAGS.map(({ bounceable, testOnly, urlSafe }): [string, string] => [
      `${raw} ${JSON.stringify({ bounceable, testOnly, urlSafe })}`,
      address.toString({ bounceable, testOnly, urlSafe }),
    ]),
  ];
});

describe("tonAccount and tonBounceable read every spelling as @ton/core does", () => {
  it.each(spellings)("%s", (_what, text) => {
    const address = Address.parse(text);
    expect(tonAccount(text)).toBe(address.toRawString());
    expect(tonBounceable(text)).toBe(address.toString({ bounceable: true, urlSafe: true, testOnly: false }));
  });

  it("a user-friendly spelling mixing the two alphabets is the account, as @ton/core reads it", () => {
    const standard = Address.parseRaw(ACCOUNTS[2]!).toString({ urlSafe: false });
    expect(standard).toMatch(/\+.*\/|\/.*\+/);
    const mixed = standard.replace("+", "-");
    expect(tonAccount(mixed)).toBe(Address.parse(mixed).toRawString());
  });
});

describe("tonAccount refuses", () => {
  const example = Address.parseRaw(ACCOUNTS[0]!);
  /** The example's user-friendly address with its tag and workchain bytes replaced, its CRC recomputed (@ton/core's). */
  const withHeader = (tag: number, workchain: number): string => {
    const body = Buffer.from(example.toString({ urlSafe: true }), "base64url");
    body[0] = tag;
    body[1] = workchain;
    crc16(body.subarray(0, 34)).copy(body, 34);
    return body.toString("base64url");
  };

  const refused: [string, string][] = [
    ["a changed CRC", `${example.toString().slice(0, -1)}J`],
    ["a changed account byte", example.toString().replace("VS5j", "VS6j")],
    ["a user-friendly address one character short", example.toString().slice(0, -1)],
    ["a raw address on workchain 1", `1:${ACCOUNTS[0]!.slice(2)}`],
    ["a raw address with 31 bytes", ACCOUNTS[0]!.slice(0, -2)],
    ["a name", "wallet.ton"],
    ["an unknown tag", withHeader(0x12, 0)],
    ["a user-friendly address on workchain 1, which @ton/core reads", withHeader(0x11, 1)],
  ];
  it.each(refused)("%s", (_why, text) => expect(tonAccount(text)).toBeNull());

  it("the header helper writes a spelling @ton/core reads, so each refusal above is the header's", () => {
    expect(withHeader(0x11, 0)).toBe(example.toString({ urlSafe: true }));
    expect(Address.parse(withHeader(0x11, 1)).workChain).toBe(1);
  });
});
