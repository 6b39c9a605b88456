import { describe, expect, it } from "vitest";
import { baseAccount, normaliseAddress, sameAddress } from "./accounts.js";

/** USDT's contract on Tron, in base58 and in hex. */
const TRON = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const TRON_HEX = "41a614f803b6fd780986a42c78ec9c7f77e6ded13c";
/** One TON account raw, bounceable and non-bounceable (the TON documentation's example). */
const TON_RAW = "0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8";
const TON_EQ = "EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N";
const TON_UQ = "UQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqEBI";
/** One XRP Ledger account: classic, as an X-address without a tag, and with tags 1 and 12345 (xrpl's own example). */
const XRP = "rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf";
const XRP_X = "XVLhHMPHU98es4dbozjVtdWzVrDjtV5fdx1mHp98tDMoQXb";
const XRP_X1 = "XVLhHMPHU98es4dbozjVtdWzVrDjtV8xvjGQTYPiAx6gwDC";
const XRP_X12345 = "XVLhHMPHU98es4dbozjVtdWzVrDjtVFpRb8iCFUkMtRyVii";
/** A Sui (or Aptos) account: 0x and 32 bytes of hex. */
const SUI = "0x5c8f4b6e1d2a3f4e5d6c7b8a9f0e1d2c3b4a5f6e7d8c9bafe1d2c3b4a5f6e7d8";
/** One Substrate account (Alice) in the generic, Polkadot and Kusama formats (SS58). */
const SUBSTRATE = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY";
const POLKADOT = "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5";
const KUSAMA = "HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F";
/** Segwit on Litecoin and a Cosmos account: bech32 under other prefixes than Bitcoin's. */
const LTC = "ltc1qpvc9275lcn5suv6c0k3v0mq3xedcpfw24vvr3x";
const COSMOS = "cosmos1pvc9275lcn5suv6c0k3v0mq3xedcpfw282gvdm";

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
    // A Tron address in hex (41 and the account's 20 bytes, in either case) is its base58 address
    // (the API takes both spellings).
    [TRON_HEX, TRON],
    [TRON_HEX.toUpperCase(), TRON],
    [TRON, TRON],
    ["418840E6C55B9ADA326D211D818C34A994AECED808", "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL"],
    // Any bech32 address in capitals is its lower-case address (BIP-173), whatever its prefix
    // (only bc, tb and bcrt were read so, and LTC1… missed ltc1…).
    [LTC.toUpperCase(), LTC],
    [COSMOS.toUpperCase(), COSMOS],
    // Not bech32 (its checksum fails), or in mixed case: left as is.
    [LTC.toUpperCase().replace(/X$/, "Y"), LTC.toUpperCase().replace(/X$/, "Y")],
    [`L${LTC.slice(1)}`, `L${LTC.slice(1)}`],
    // A TON account in any of its spellings is its raw address in lower case (a deny rule naming UQ… let EQ… and 0:… through).
    [TON_EQ, TON_RAW],
    [TON_UQ, TON_RAW],
    [TON_RAW.toUpperCase(), TON_RAW],
    [TON_RAW, TON_RAW],
    ["0QCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqPvC", TON_RAW],
    ["Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF", `-1:${"3".repeat(64)}`],
    // Its checksum fails: not an address, left as is.
    [`${TON_UQ.slice(0, -1)}J`, `${TON_UQ.slice(0, -1)}J`],
    // An X-address without a tag is its classic address; one with a tag names a sub-account and is
    // left as is, as a Stellar muxed address is.
    [XRP_X, XRP],
    [XRP_X1, XRP_X1],
    [XRP, XRP],
    [`${XRP_X.slice(0, -1)}c`, `${XRP_X.slice(0, -1)}c`],
    // 0x and 32 bytes of hex (Sui, Aptos) is hex: either case is the same account.
    [SUI.toUpperCase().replace("0X", "0x"), SUI],
    [SUI, SUI],
    // A Substrate account in any network's SS58 format is its generic one.
    [POLKADOT, SUBSTRATE],
    [KUSAMA, SUBSTRATE],
    [SUBSTRATE, SUBSTRATE],
    // Its checksum fails: left as is.
    [`${POLKADOT.slice(0, -1)}6`, `${POLKADOT.slice(0, -1)}6`],
    // Not 41 + 20 bytes: left as is.
    [`0x${TRON_HEX.slice(2)}`, `0x${TRON_HEX.slice(2)}`],
    [TRON_HEX.slice(0, -2), TRON_HEX.slice(0, -2)],
  ];
  it.each(cases)("%s → %s", (input, expected) => expect(normaliseAddress(input)).toBe(expected));
});

describe("baseAccount", () => {
  it("an X-address, with or without a tag, is its classic account; a Stellar muxed address its G… account", () => {
    expect(baseAccount(XRP_X12345)).toBe(XRP);
    expect(baseAccount(XRP_X1)).toBe(XRP);
    expect(baseAccount(XRP_X)).toBe(XRP);
    expect(baseAccount(XRP)).toBe(XRP);
    expect(baseAccount(TRON)).toBe(TRON);
  });
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
    [LTC, LTC.toUpperCase(), true],
    [COSMOS.toUpperCase(), COSMOS, true],
    [LTC, COSMOS, false],
    [TON_EQ, TON_UQ, true],
    [TON_UQ, TON_RAW.toUpperCase(), true],
    [TON_UQ, "Ef8zMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzM0vF", false],
    [XRP_X, XRP, true],
    [XRP_X1, XRP, false],
    [SUI, SUI.toUpperCase().replace("0X", "0x"), true],
    [SUI, SUI.replace(/8$/, "9"), false],
    [POLKADOT, KUSAMA, true],
    [POLKADOT, SUBSTRATE, true],
    [POLKADOT, "14E5nqKAp3oAJcmzgZhUD2RcptBeUBScxKHgJKU4HPNcKVf3", false],
    [TRON_HEX, TRON, true],
    [TRON_HEX.toUpperCase(), TRON_HEX, true],
    [TRON_HEX, "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL", false],
  ];
  it.each(cases)("%s vs %s → %s", (a, b, expected) => {
    expect(sameAddress(a, b)).toBe(expected);
    expect(sameAddress(b, a)).toBe(expected);
  });
});

// X-addresses were decoded (two SHA-256 and a base58
// number) at every comparison, twice or four times for each item of a rule's list, where the
// other spellings' decodings are memoised: a deny list of a thousand X-addresses cost ~20 ms a
// transfer. The same text decodes to the same (memoised) answer.
describe("X-address decoding on the decision path", () => {
  it("is memoised", async () => {
    const { xrplXAddress } = await import("./xrpl/address.js");
    const x = "XVLhHMPHU98es4dbozjVtdWzVrDjtV8xvjGQTYPiAx6gwDC";
    expect(xrplXAddress(x)).not.toBeNull();
    expect(xrplXAddress(x)).toBe(xrplXAddress(x));
  });
});
