/**
 * A TON account is one whichever way it is spelt: raw `0:…`, bounceable `EQ…`, non-bounceable
 * `UQ…`. A TON DNS name or a payment URI is not one: refused, never resolved. A jetton's master in
 * any spelling names one asset, so a limit naming `EQ…` counts `UQ…` in its window.
 */
import { describe, expect, it } from "vitest";
import { structuredIdentity } from "../assets.js";
import { asRuleNames, destinationAsRead } from "../test-readings.js";

// The TON documentation's example account, bounceable and raw.
const TON = "EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N";
const TON_RAW = "0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8";
// Tether's USD₮ master, bounceable as the platform writes it, and the same account non-bounceable.
const USDT_MASTER = "EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs";
const USDT_MASTER_NON_BOUNCEABLE = "UQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_p0p";
const jetton = (master: string) => `assets/jetton.ton-mainnet.${master}`;

describe("a TON destination", () => {
  it.each([TON, TON_RAW])("%s is the account a rule naming it bounceable compares", (destination) => {
    expect(destinationAsRead("ton-mainnet", destination)).toEqual(asRuleNames(TON));
  });

  it.each([
    ["foundation.ton", "a TON account must be written raw (0:…) or user-friendly"],
    [`ton:${TON}`, "not as a payment URI"],
  ])("spelt %s is refused: %s", (destination, reason) => {
    expect(destinationAsRead("ton-mainnet", destination)).toEqual({ refused: expect.stringContaining(reason) });
  });

  it("as a payment URI is refused where the transfer's network is unknown", () => {
    expect(destinationAsRead(null, `ton:${TON}`, "assets/e72ff35a5b15")).toEqual({ refused: expect.stringContaining("not as a payment URI") });
  });
});

describe("a jetton's master", () => {
  it.each([USDT_MASTER, USDT_MASTER_NON_BOUNCEABLE])("spelt %s is the one asset a window and a limit naming it bounceable count", (master) => {
    expect(asRuleNames(jetton(USDT_MASTER))).toEqual({ account: structuredIdentity(jetton(master)) });
  });
});
