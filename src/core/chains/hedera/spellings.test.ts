/**
 * A Hedera account is `0.0.N` to rules, the address book and the windows. Its SDKs also take a
 * HIP-15 checksum, the long-zero EVM address or an EVM alias: each is refused, never converted, so
 * none reaches a deny rule naming `0.0.N` as other text.
 */
import { describe, expect, it } from "vitest";
import { asRuleNames, destinationAsRead } from "../test-readings.js";

describe("a Hedera destination", () => {
  it("as shard.realm.num is the account a rule naming it compares", () => {
    expect(destinationAsRead("hedera-mainnet", "0.0.12345")).toEqual(asRuleNames("0.0.12345"));
  });

  it("naming another account is not the named one", () => {
    expect(destinationAsRead("hedera-mainnet", "0.0.54321")).toEqual({ account: "0.0.54321" });
  });

  it.each([
    ["0.0.12345-vfmkw", "HIP-15: the account and a checksum of the ledger"],
    ["0x0000000000000000000000000000000000003039", "the long-zero EVM address of 0.0.12345"],
    ["0.0.012345", "a leading zero"],
    ["0.0.b794f5ea0ba39494ce839613fffba74279579268", "an account's EVM alias, as the SDKs take it"],
  ])("spelt %s (%s) is refused", (destination) => {
    expect(destinationAsRead("hedera-mainnet", destination)).toEqual({ refused: expect.stringContaining("a Hedera account must be written shard.realm.num") });
  });
});
