/**
 * On an EVM network an account is `0x` and 40 hex digits, in either case (the mixed case is only an
 * EIP-55 checksum). An ENS name, 32 bytes whose last 20 are the account, an ICAP, `0X…` or the
 * digits alone are spellings a client may resolve to an account that a deny rule names by its hex,
 * or that the synced copy does not find: refused in a destination and in the signed transaction's
 * sender. An asset's contract and its standard and network are read without case.
 */
import { describe, expect, it } from "vitest";
import { structuredIdentity } from "../assets.js";
import { asRuleNames, destinationAsRead, evmSenderAsRead } from "../test-readings.js";

const DENIED = "0x52908400098527886E0F7030069857D2E4169EE7";
const ETH = "assets/native.ethereum-mainnet";
const USDC = "assets/erc20.ethereum-mainnet.0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48";

describe("an EVM destination", () => {
  it.each([DENIED, DENIED.toLowerCase()])("%s is the account a rule naming its checksummed spelling compares", (destination) => {
    expect(destinationAsRead("ethereum-mainnet", destination)).toEqual(asRuleNames(DENIED));
  });

  it.each([
    ["32 bytes", `0x000000000000000000000000${DENIED.slice(2)}`],
    ["an ENS name", "sanctioned-treasury.eth"],
    ["an ICAP", "XE7338O073KYGTWWZN0F2WZ0R8PX5ZPPZS"],
  ])("spelt as %s is refused", (_spelling, destination) => {
    expect(destinationAsRead("ethereum-mainnet", destination)).toEqual({ refused: expect.stringContaining("an EVM address must be written 0x and 40 hex digits") });
  });
});

describe("the EVM sender of a signed transaction", () => {
  it.each([DENIED, DENIED.toLowerCase()])("%s is the account the synced copy is searched for", (sender) => {
    expect(evmSenderAsRead(sender)).toEqual({ account: sender });
  });

  it.each([
    ["0X and its digits", `0X${DENIED.slice(2)}`],
    ["its digits alone", DENIED.slice(2)],
    ["32 bytes", `0x${"0".repeat(24)}${DENIED.slice(2)}`],
    ["an ENS name", "cold-wallet.eth"],
  ])("spelt as %s is refused", (_spelling, sender) => {
    expect(evmSenderAsRead(sender)).toEqual({ refused: expect.stringContaining("evmTransaction.fromAddress.value") });
  });
});

describe("an EVM asset", () => {
  it.each([
    [ETH, "assets/Native.Ethereum-Mainnet"],
    [ETH, "assets/NATIVE.Ethereum-Mainnet"],
    [USDC, USDC.replace(".0x", ".0X")],
    [USDC, USDC.replace(".0x", ".")],
    [USDC, USDC.toUpperCase().replace("ASSETS/", "assets/")],
  ])("%s spelt %s is the one asset a window and a rule count", (named, spelt) => {
    expect(asRuleNames(named)).toEqual({ account: structuredIdentity(spelt) });
  });
});
