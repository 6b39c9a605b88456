/**
 * A Hedera account is `0.0.N` to rules, the address book and the windows, while its SDKs and the
 * network also take `0.0.N-abcde` (HIP-15's checksum, parsed away) and the account's EVM address
 * (the long-zero `0x…` of N, or its alias). Through the real service, under a deny list naming
 * 0.0.12345 with everything else allowed: each other spelling is refused (400, left pending), never
 * signed past the deny rule (found by a review of account spellings: each was signed).
 */
import { describe, expect, it } from "vitest";
import { assetTransfer } from "../support/bodies.js";
import { serviceWithPolicy } from "../support/service.js";

const POLICY = `
version: "hedera-deny-list.1"
default: deny
rules:
  - id: sanctioned
    decision: deny
    reason: The destination is on the deny list
    when: {"in": [{"var": "transfer.destination.address"}, ["0.0.12345"]]}
  - id: everything-else
    decision: allow
    when: true
`;

describe("a deny list naming the Hedera account 0.0.12345", () => {
  const suite = serviceWithPolicy(POLICY);
  const deliver = (destination: string) => suite.cosigner.deliver(assetTransfer({ asset: "assets/native.hedera-mainnet", amount: "1", destination }));

  it("cancels a transfer to 0.0.12345 and signs one to another account", async () => {
    expect((await deliver("0.0.12345")).verdict).toBe("canceled");
    expect((await deliver("0.0.54321")).verdict).toBe("signed");
  });

  it.each([
    "0.0.12345-vfmkw", // HIP-15: the account and a checksum of the ledger
    "0x0000000000000000000000000000000000003039", // the long-zero EVM address of 0.0.12345
    "0.0.012345",
    "0.0.b794f5ea0ba39494ce839613fffba74279579268", // an account's EVM alias, as the SDKs take it
  ])("leaves %s pending (400), never signed", async (destination) => {
    const delivery = await deliver(destination);
    expect(delivery.status).toBe(400);
    expect(JSON.stringify(delivery.body)).toContain("a Hedera account must be written shard.realm.num");
    expect(delivery.verdict).toBe("pending");
  });
});
