/**
 * A bech32 address in capitals is the same address (BIP-173), and rules, the address book and the
 * windows compare any one-case bech32 address without case. A Cardano address is bech32 too, but
 * longer than BIP-173's 90 characters (103 for a base address, CIP-19) and, on a test network, with
 * an `_` in its prefix (`addr_test`, CIP-5): such an address in capitals was compared as written.
 * Through the real service, under a deny list naming each address in lower case with everything
 * else allowed: the capitals are canceled, never signed (found by a review of account spellings).
 */
import { describe, expect, it } from "vitest";
import { assetTransfer } from "../support/bodies.js";
import { serviceWithPolicy } from "../support/service.js";

// CIP-19's test vectors: a base address (payment key hash and stake key hash) on mainnet and testnet.
const MAINNET = "addr1qx2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgse35a3x";
const TESTNET = "addr_test1qz2fxv2umyhttkxyxp8x0dlpdt3k6cwng5pxj3jhsydzer3n0d3vllmyqwsx5wktcd8cc3sq835lu7drv2xwl2wywfgs68faae";

const POLICY = `
version: "cardano-deny-list.1"
default: deny
rules:
  - id: sanctioned
    decision: deny
    reason: The destination is on the deny list
    when: {"in": [{"var": "transfer.destination.address"}, ["${MAINNET}", "${TESTNET}"]]}
  - id: everything-else
    decision: allow
    when: true
`;

describe("a deny list naming Cardano addresses in lower case", () => {
  const suite = serviceWithPolicy(POLICY);
  const deliver = (network: string, destination: string) => suite.cosigner.deliver(assetTransfer({ asset: `assets/native.${network}`, amount: "1", destination }));

  it.each([
    ["cardano-mainnet", MAINNET],
    ["cardano-mainnet", MAINNET.toUpperCase()],
    ["cardano-testnet", TESTNET],
    ["cardano-testnet", TESTNET.toUpperCase()],
  ])("cancels a transfer on %s to %s, never signs it", async (network, destination) => {
    expect((await deliver(network, destination)).verdict).toBe("canceled");
  });

  it("signs a transfer to an address it does not name", async () => {
    expect((await deliver("cardano-mainnet", "addr1w8phkx6acpnf78fuvxn0mkew3l0fd058hzquvz7w36x4gtcyjy7wx")).verdict).toBe("signed");
  });
});
