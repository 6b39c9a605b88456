/**
 * An allowlist written as one string in a rule is a list of accounts: a destination is allowed when
 * it is one of them, never when it is only part of one. Through the real service: under an
 * allowlist naming the Hedera account 0.0.12345 and the NEAR account treasury.near, a transfer to
 * 0.0.1234 (another Hedera account) or sury.near (a NEAR account anyone can register) is canceled,
 * while the accounts named are signed.
 */
import { describe, expect, it } from "vitest";
import { assetTransfer } from "../../support/bodies.js";
import { serviceWithPolicy } from "../../support/service.js";

const POLICY = `
version: "string-allowlist.1"
default: deny
rules:
  - id: allowlisted-destination
    decision: allow
    when: {"in": [{"var": "transfer.destination.address"}, "0.0.12345, treasury.near"]}
`;

describe("an allowlist written as one string", () => {
  const suite = serviceWithPolicy(POLICY);
  const deliver = (asset: string, destination: string) => suite.cosigner.deliver(assetTransfer({ asset, amount: "1", destination }));

  it("signs a transfer to an account it names", async () => {
    expect((await deliver("assets/native.hedera-mainnet", "0.0.12345")).verdict).toBe("signed");
    expect((await deliver("assets/native.near-mainnet", "treasury.near")).verdict).toBe("signed");
  });

  it.each([
    ["assets/native.hedera-mainnet", "0.0.1234"],
    ["assets/native.hedera-mainnet", "0.0.1"],
    ["assets/native.near-mainnet", "sury.near"],
    ["assets/native.near-mainnet", "near"],
  ])("cancels a transfer on %s to %s, which is only part of an account it names", async (asset, destination) => {
    expect((await deliver(asset, destination)).verdict).toBe("canceled");
  });
});

// A number looked for among a list written as one string
// was silently never in it (its items are text), and loading refuses only a plain {"var": …}. This
// deny rule, its list chosen by ?:, loaded; every day is in either list, yet it never denied and
// every transfer was signed. Now the evaluation fails, which a deny rule counts as matched.
const WEEKDAYS_POLICY = `
version: "string-list-weekdays.1"
default: deny
rules:
  - id: no-external-transfers-on-these-days
    decision: deny
    reason: No transfer leaves the vault on these days
    when: {"in": [{"var": "nowWeekday"}, {"?:": [{"var": "transfer.destination.internal"}, "6", "0, 1, 2, 3, 4, 5, 6"]}]}
  - id: everything-else
    decision: allow
    when: true
`;

describe("a deny rule looking for a number among a list written as one string that it chooses", () => {
  const suite = serviceWithPolicy(WEEKDAYS_POLICY);

  it("cancels a transfer on a day it names, never signs it", async () => {
    const delivery = await suite.cosigner.deliver(assetTransfer({ asset: "assets/native.near-mainnet", amount: "1", destination: "treasury.near" }));
    expect(delivery.verdict).toBe("canceled");
  });
});
