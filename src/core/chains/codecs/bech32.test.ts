import { describe, expect, it } from "vitest";
import { normaliseAddress } from "../accounts.js";
import { asRuleNames, destinationAsRead } from "../test-readings.js";
import { isOneCaseBech32 } from "./bech32.js";

const COSMOS = "cosmos1pvc9275lcn5suv6c0k3v0mq3xedcpfw282gvdm";
/** COSMOS in capitals with its `K` written as the Kelvin sign U+212A, which lowers to `k`. */
const COSMOS_KELVIN = COSMOS.toUpperCase().replace("K", "\u212a");

describe("isOneCaseBech32", () => {
  const valid: [string, string][] = [
    // BIP-173's and BIP-350's valid strings, under prefixes of letters and digits.
    ["bech32", "A12UEL5L"],
    ["bech32", "a12uel5l"],
    ["bech32", "an83characterlonghumanreadablepartthatcontainsthenumber1andtheexcludedcharactersbio1tt5tgs"],
    ["bech32", "abcdef1qpzry9x8gf2tvdw0s3jn54khce6mua7lmqqqxw"],
    ["bech32", `11${"q".repeat(82)}c8247j`],
    ["bech32", "split1checkupstagehandshakeupstreamerranterredcaperred2y9e3w"],
    ["bech32m", "A1LQFN3A"],
    ["bech32m", "a1lqfn3a"],
    ["bech32m", "abcdef1l7aum6echk45nj3s0wdvt2fg8x9yrzpqzd3ryx"],
    ["bech32m", "split1checkupstagehandshakeupstreamerranterredcaperredlc445v"],
    ["segwit v0", "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4"],
    ["segwit v1", "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0"],
    ["a Cosmos account", COSMOS],
    ["a Cosmos account in capitals", COSMOS.toUpperCase()],
  ];
  it.each(valid)("a %s string: %s", (_kind, text) => expect(isOneCaseBech32(text)).toBe(true));

  const refused: [string, string][] = [
    ["its checksum made with the prefix in capitals", "A1G7SGD8"],
    ["an empty prefix", "10a06t8"],
    ["an empty prefix, upper case", "1qzzfhee"],
    ["a letter outside the data alphabet", "x1b4n0q5v"],
    ["a checksum shorter than 6", "li1dgmt3"],
    ["mixed case", "a12UEL5L"],
    ["a prefix no chain writes (BIP-173 allows `?`)", "?1ezyfcl"],
    ["a changed letter", COSMOS.replace(/m$/, "n")],
    ["the Kelvin sign for k, in capitals", COSMOS_KELVIN],
  ];
  it.each(refused)("refuses %s: %j", (_why, text) => expect(isOneCaseBech32(text)).toBe(false));

  it("a look-alike in capitals with the Kelvin sign is not the address it resembles", () => {
    expect(normaliseAddress(COSMOS_KELVIN)).toBe(COSMOS_KELVIN);
    expect(normaliseAddress(COSMOS.toUpperCase())).toBe(COSMOS);
  });
});

describe("a Cardano address in capitals", () => {
  // CIP-19's test vectors: a base address (payment key hash and stake key hash) on mainnet and
  // testnet, longer than BIP-173's 90 characters and, on the testnet, with `_` in its prefix (CIP-5).
  const MAINNET = "addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x";
  const TESTNET = "addr_test1qz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgs68faae";

  it.each([
    ["cardano-mainnet", MAINNET, MAINNET],
    ["cardano-mainnet", MAINNET.toUpperCase(), MAINNET],
    ["cardano-testnet", TESTNET, TESTNET],
    ["cardano-testnet", TESTNET.toUpperCase(), TESTNET],
  ])("on %s, %s is the address a rule naming it in lower case compares", (network, destination, named) => {
    expect(destinationAsRead(network, destination)).toEqual(asRuleNames(named));
  });

  it("naming another address is not the named one", () => {
    const other = "addr1w8phkx6acpnf78fuvxn0mkew3l0fd058hzquvz7w36x4gtcyjy7wx";
    expect(destinationAsRead("cardano-mainnet", other)).toEqual({ account: other });
    expect(asRuleNames(MAINNET)).not.toEqual({ account: other });
  });
});
