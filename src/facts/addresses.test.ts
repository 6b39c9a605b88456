import { describe, expect, it } from "vitest";
import { normaliseAddress, sameAddress } from "./addresses.js";

describe("normaliseAddress", () => {
  const cases: [string, string][] = [
    ["0x52908400098527886E0F7030069857D2E4169EE7", "0x52908400098527886e0f7030069857d2e4169ee7"],
    ["0x52908400098527886e0f7030069857d2e4169ee7", "0x52908400098527886e0f7030069857d2e4169ee7"],
    // Not 0x + 40 hex: left exactly as is.
    ["0X52908400098527886E0F7030069857D2E4169EE7", "0X52908400098527886E0F7030069857D2E4169EE7"],
    ["0x52908400098527886E0F7030069857D2E4169EE", "0x52908400098527886E0F7030069857D2E4169EE"],
    ["EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"],
    ["GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN", "GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN"],
  ];
  it.each(cases)("%s → %s", (input, expected) => expect(normaliseAddress(input)).toBe(expected));
});

describe("sameAddress", () => {
  const cases: [string, string, boolean][] = [
    ["0x52908400098527886E0F7030069857D2E4169EE7", "0x52908400098527886e0f7030069857d2e4169ee7", true],
    ["0x52908400098527886E0F7030069857D2E4169EE7", "0x52908400098527886E0F7030069857D2E4169EE8", false],
    ["EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", true],
    ["EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "epjfwdd5aufqssqem2qn1xzybapc8g4weggkzwytdt1v", false],
    ["GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN", "ga5zsejyb37jrc5avcia5mop4rhtm335x2kgx3ihojapp5re34k4kzvn", false],
    ["bc1qabc", "BC1QABC", false],
  ];
  it.each(cases)("%s vs %s → %s", (a, b, expected) => {
    expect(sameAddress(a, b)).toBe(expected);
    expect(sameAddress(b, a)).toBe(expected);
  });
});
