/**
 * A Tron account is base58 `T…` or `41` and its 20 bytes in hex, which compare as one. `0x` and the
 * 20 bytes, as Tron's virtual machine writes it, is other text: refused, in a transfer and in an
 * allowance's spender. A TRC-20 contract in hex is its base58 address, so a limit naming `T…`
 * counts the hex spelling in its window.
 */
import { describe, expect, it } from "vitest";
import { structuredIdentity } from "../assets.js";
import { asRuleNames, spenderAsRead } from "../test-readings.js";

/** USDT's contract on Tron, in base58 and as its 20 bytes in hex. */
const USDT = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const USDT_BYTES = "a614f803b6fd780986a42c78ec9c7f77e6ded13c";
const trc20 = (contract: string) => `assets/trc20.tron-mainnet.${contract}`;
const spender = (written: string) => spenderAsRead("tron-mainnet", trc20(USDT), "TZ4UXDV5ZhNW7fb2AMSbgfAEZ7hWsnYS2g", written);

describe("a Tron allowance's spender", () => {
  it.each([USDT, `41${USDT_BYTES}`, `41${USDT_BYTES.toUpperCase()}`])("%s is the account a rule naming it in base58 compares", (written) => {
    expect(spender(written)).toEqual(asRuleNames(USDT));
  });

  it.each([`0x${USDT_BYTES}`, `0X${USDT_BYTES.toUpperCase()}`])("spelt %s is refused", (written) => {
    expect(spender(written)).toEqual({ refused: expect.stringContaining("a Tron account must be written in base58") });
  });
});

describe("a TRC-20 token's contract", () => {
  it.each([USDT, `41${USDT_BYTES}`, `41${USDT_BYTES}`.toUpperCase()])("spelt %s is the one asset a window and a limit naming it in base58 count", (contract) => {
    expect(asRuleNames(trc20(USDT))).toEqual({ account: structuredIdentity(trc20(contract)) });
  });
});
