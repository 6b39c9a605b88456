/**
 * A NEAR account id is lower case. One in capitals is a spelling a client may fold to the account,
 * which a deny rule naming the account would not see: refused.
 */
import { describe, expect, it } from "vitest";
import { asRuleNames, destinationAsRead } from "../test-readings.js";

describe("a NEAR destination", () => {
  it("as its account id is the account a rule naming it compares", () => {
    expect(destinationAsRead("near-mainnet", "treasury.near")).toEqual(asRuleNames("treasury.near"));
  });

  it("naming another account is not the named one", () => {
    expect(destinationAsRead("near-mainnet", "payroll.near")).toEqual({ account: "payroll.near" });
  });

  it.each(["TREASURY.near", "Treasury.near"])("spelt %s is refused", (destination) => {
    expect(destinationAsRead("near-mainnet", destination)).toEqual({ refused: expect.stringContaining("a NEAR account must be written as its account id, in lower case") });
  });
});
