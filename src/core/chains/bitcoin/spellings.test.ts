/**
 * A Bitcoin address is letters and digits; a segwit address in capitals is the same address
 * (BIP-173). A BIP-21 `bitcoin:` URI is a wallet's way to pay it, which a deny rule naming the
 * address would not see: refused, on a Bitcoin network and where the network is unknown.
 */
import { describe, expect, it } from "vitest";
import { asRuleNames, destinationAsRead } from "../test-readings.js";

// BIP-173's P2WPKH test vector.
const BTC = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq";

describe("a Bitcoin destination", () => {
  it.each([BTC, BTC.toUpperCase()])("%s is the address a rule naming it in lower case compares", (destination) => {
    expect(destinationAsRead("bitcoin-mainnet", destination)).toEqual(asRuleNames(BTC));
  });

  it.each([`bitcoin:${BTC}`, `BITCOIN:${BTC.toUpperCase()}`])("spelt %s is refused as a payment URI", (destination) => {
    expect(destinationAsRead("bitcoin-mainnet", destination)).toEqual({ refused: expect.stringContaining("not as a payment URI") });
  });

  it("as a payment URI is refused where the transfer's network is unknown", () => {
    expect(destinationAsRead(null, `bitcoin:${BTC}`, "assets/e72ff35a5b15")).toEqual({ refused: expect.stringContaining("not as a payment URI") });
  });
});
