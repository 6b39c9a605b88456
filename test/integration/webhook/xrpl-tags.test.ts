/**
 * An XRP Ledger X-address carries a destination tag, which an exchange credits a deposit by. A rule
 * naming the classic account `r…` catches every X-address of it (the ledger pays that account), so
 * a rule that trusts an exchange pins the tag with `transfer.destination.muxedId`, as for Stellar
 * muxed addresses (README). Through the real service: pinned, only the pinned tag is signed.
 */
import { describe, expect, it } from "vitest";
import { assetTransfer } from "../../support/bodies.js";
import { serviceWithPolicy } from "../../support/service.js";

const ACCOUNT = "rGWrZyQqhTp9Xu7G5Pkayo7bXjH4k4QYpf";
const TAG_1 = "XVLhHMPHU98es4dbozjVtdWzVrDjtV8xvjGQTYPiAx6gwDC";
const TAG_12345 = "XVLhHMPHU98es4dbozjVtdWzVrDjtVFpRb8iCFUkMtRyVii";
const NO_TAG = "XVLhHMPHU98es4dbozjVtdWzVrDjtV5fdx1mHp98tDMoQXb";
const XRP = "assets/native.xrpl-mainnet";

const POLICY = `
version: "xrpl-tags.1"
default: deny
rules:
  - id: exchange-deposit
    decision: allow
    when:
      and:
        - {"===": [{"var": "transfer.destination.baseAccount"}, "${ACCOUNT}"]}
        - {"===": [{"var": "transfer.destination.muxedId"}, "12345"]}
`;

describe("an allow rule trusting an XRP account with its tag pinned", () => {
  const suite = serviceWithPolicy(POLICY);
  const deliver = (destination: string) => suite.cosigner.deliver(assetTransfer({ asset: XRP, amount: "10", destination }));

  it("signs the pinned tag's X-address and nothing else of that account", async () => {
    expect((await deliver(TAG_12345)).verdict).toBe("signed");
    expect((await deliver(TAG_1)).verdict).toBe("canceled");
    expect((await deliver(NO_TAG)).verdict).toBe("canceled");
    expect((await deliver(ACCOUNT)).verdict).toBe("canceled");
  });
});
