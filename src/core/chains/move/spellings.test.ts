/**
 * On Sui and Aptos an account is 32 bytes, which their SDKs also take written short (`0xa` is `0x`,
 * 63 zeros and `a`). A transfer's destination written short is refused, never padded, so it never
 * reaches a deny rule naming the long form as other text.
 */
import { describe, expect, it } from "vitest";
import { asRuleNames, destinationAsRead } from "../test-readings.js";

const DENIED = `0x${"0".repeat(61)}bad`;

describe.each(["sui-mainnet", "aptos-mainnet"])("a destination on %s", (network) => {
  it("as 0x and 64 hex digits, in either case, is the account a rule naming it compares", () => {
    expect(destinationAsRead(network, DENIED)).toEqual(asRuleNames(DENIED));
    expect(destinationAsRead(network, DENIED.toUpperCase().replace("0X", "0x"))).toEqual(asRuleNames(DENIED));
  });

  it.each(["0xbad", `0x0${"0".repeat(10)}bad`])("written short as %s is refused", (destination) => {
    expect(destinationAsRead(network, destination)).toEqual({ refused: expect.stringContaining("a Sui or Aptos account must be written 0x and 64 hex digits") });
  });
});
