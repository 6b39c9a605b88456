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
    // A segwit address in capitals is the lower-case address (BIP-173); mixed case is not an address.
    ["BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"],
    ["bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"],
    ["bc1Qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "bc1Qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"],
    ["1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2"],
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
    ["bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", "BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ", true],
    ["1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2", "1bvbmseystwetqtfn5au4m4gfg7xjanvn2", false],
  ];
  it.each(cases)("%s vs %s → %s", (a, b, expected) => {
    expect(sameAddress(a, b)).toBe(expected);
    expect(sameAddress(b, a)).toBe(expected);
  });
});
