/**
 * A Solana account is base58. An SNS name or a payment URI is a spelling a wallet resolves to an
 * account that a deny rule names in base58: refused, so it never reaches the rule as other text.
 * A token is one asset under each of the API's program prefixes (spl, spl-token, spl-token-2022),
 * so a window grouped by asset counts it once.
 */
import { describe, expect, it } from "vitest";
import { assetIdentity } from "../assets.js";
import { asRuleNames, destinationAsRead } from "../test-readings.js";

const SOL = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
const MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";

describe("a Solana destination", () => {
  it("in base58 is the account a rule naming it compares", () => {
    expect(destinationAsRead("solana-mainnet", SOL)).toEqual(asRuleNames(SOL));
  });

  it("in base58 naming another account is not the named one", () => {
    expect(destinationAsRead("solana-mainnet", MINT)).toEqual({ account: MINT });
  });

  it.each([
    ["treasury.sol", "a Solana account must be written in base58"],
    [`solana:${SOL}`, "not as a payment URI"],
  ])("spelt %s is refused: %s", (destination, reason) => {
    expect(destinationAsRead("solana-mainnet", destination)).toEqual({ refused: expect.stringContaining(reason) });
  });

  it("as a payment URI is refused where the transfer's network is unknown", () => {
    expect(destinationAsRead(null, `solana:${SOL}`, "assets/e72ff35a5b15")).toEqual({ refused: expect.stringContaining("not as a payment URI") });
  });
});

describe("a Solana token", () => {
  it.each(["spl", "spl-token", "spl-token-2022"])("under %s is the one asset a window and a rule count", (prefix) => {
    const asset = `assets/${prefix}.solana-mainnet.${MINT}`;
    expect(assetIdentity(asset, "spl", "solana-mainnet")).toBe(`assets/spl-token.solana-mainnet.${MINT}`);
    expect(asRuleNames(`assets/spl.solana-mainnet.${MINT}`)).toEqual({ account: assetIdentity(asset, "spl", "solana-mainnet") });
  });
});
