/**
 * On an EVM network an account is `0x` and 40 hex digits. Any other raw destination — an ENS name,
 * 32 bytes of hex whose last 20 are the account (go-ethereum's HexToAddress keeps those), an ICAP —
 * is a spelling a client may resolve to an account while a deny list compares other text. Through
 * the real service, under a deny list with everything else allowed: such a destination is refused
 * (400, left pending), never signed (found by a review of hostile bodies).
 */
import { describe, expect, it } from "vitest";
import { assetTransfer } from "../support/bodies.js";
import { serviceWithPolicy } from "../support/service.js";

const DENIED = "0x52908400098527886E0F7030069857D2E4169EE7";
const ETH = "assets/native.ethereum-mainnet";

const POLICY = `
version: "evm-deny-list.1"
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

describe("a deny list on an EVM network against other spellings of a denied account", () => {
  const suite = serviceWithPolicy(POLICY);
  const deliver = (destination: string) => suite.cosigner.deliver(assetTransfer({ asset: ETH, amount: "1", destination }));

  it("cancels the account as 0x and 40 hex digits, in either case", async () => {
    expect((await deliver(DENIED)).verdict).toBe("canceled");
    expect((await deliver(DENIED.toLowerCase())).verdict).toBe("canceled");
  });

  it.each([`0x000000000000000000000000${DENIED.slice(2)}`, "sanctioned-treasury.eth", "XE7338O073KYGTWWZN0F2WZ0R8PX5ZPPZS"])("leaves %s pending (400), never signed", async (destination) => {
    const delivery = await deliver(destination);
    expect(delivery.status).toBe(400);
    expect(delivery.verdict).toBe("pending");
  });
});
