/**
 * On Sui and Aptos an account is 32 bytes, which their SDKs also take written short (`0xa` is `0x`,
 * 63 zeros and `a`). Rules, the address book and the windows compare `0x` and 64 hex digits.
 * Through the real service, under a deny list with everything else allowed: a short destination
 * is refused (400, left pending), never signed past the deny rule naming its long form (found by a
 * review of hostile bodies).
 */
import { describe, expect, it } from "vitest";
import { HOT_WALLET, transactionName } from "../support/bodies.js";
import { serviceWithPolicy } from "../support/service.js";

const DENIED = `0x${"0".repeat(61)}bad`;

const POLICY = `
version: "hex-account-deny-list.1"
default: deny
rules:
  - id: sanctioned
    decision: deny
    reason: The destination is on the deny list
    when: {"in": [{"var": "transfer.destination.address"}, ["${DENIED}"]]}
  - id: everything-else
    decision: allow
    when: true
`;

const transfer = (network: string, destination: string) => ({
  name: transactionName("hex32"),
  type: "TRANSACTION",
  subType: "NATIVE_TRANSFER",
  network: `networks/${network}`,
  request: { sourceWallet: HOT_WALLET },
  transfers: [{ destinationAddress: { value: destination }, amount: "1", asset: `assets/native.${network}` }],
});

describe.each(["sui-mainnet", "aptos-mainnet"])("a deny list on %s against the short spelling of a denied account", (network) => {
  const suite = serviceWithPolicy(POLICY);

  it("cancels the account as 0x and 64 hex digits", async () => {
    expect((await suite.cosigner.deliver(transfer(network, DENIED))).verdict).toBe("canceled");
  });

  it.each(["0xbad", `0x0${"0".repeat(10)}bad`])("leaves %s pending (400), never signed", async (destination) => {
    const delivery = await suite.cosigner.deliver(transfer(network, destination));
    expect(delivery.status).toBe(400);
    expect(JSON.stringify(delivery.body)).toContain("a Sui or Aptos account must be written 0x and 64 hex digits");
    expect(delivery.verdict).toBe("pending");
  });
});
