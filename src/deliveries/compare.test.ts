import { describe, expect, it } from "vitest";
import { contentDigest } from "../core/transaction/content-digest.js";
import { parseTransaction } from "../core/transaction/parse.js";
import type { Transaction } from "../core/transaction/types.js";
import { compareWithPlatform } from "./compare.js";

const NAME = "vaults/v1/transactions/t1";

function tx(overrides: Record<string, unknown> = {}): Transaction {
  const parsed = parseTransaction({
    name: NAME,
    type: "TRANSACTION",
    subType: "NATIVE_TRANSFER",
    state: "AWAITING_SIGNATURE",
    network: "networks/ethereum-mainnet",
    createTime: "2026-11-28T09:00:00Z",
    request: { sourceWallet: "vaults/v1/wallets/hot" },
    transfers: [{ destinationAddress: { value: "0x1111111111111111111111111111111111111111" }, amount: "1", asset: "assets/native.ethereum-mainnet" }],
    ...overrides,
  });
  if (!parsed.ok) throw parsed.error;
  return parsed.value;
}

describe("a delivery compared with the platform's copy", () => {
  it("is the same when only the state and timestamps differ, and goes on as the platform's copy", () => {
    const copy = tx();
    const result = compareWithPlatform(contentDigest(tx({ state: "PENDING_OTHER_SIGNERS", createTime: "2026-11-28T10:00:00Z" })), copy);
    expect(result).toEqual({ kind: "same", copy });
  });

  it("is a mismatch when a value differs, keeping both digests and the copy", () => {
    const delivered = contentDigest(
      tx({ transfers: [{ destinationAddress: { value: "0x1111111111111111111111111111111111111111" }, amount: "2", asset: "assets/native.ethereum-mainnet" }] }),
    );
    const copy = tx();
    expect(compareWithPlatform(delivered, copy)).toEqual({
      kind: "refused",
      refusal: { code: "DELIVERY_MISMATCH", deliveredDigest: delivered, platformDigest: contentDigest(copy), platformState: "AWAITING_SIGNATURE", platformCopy: copy.snapshot },
    });
  });

  it("is a mismatch without a platform digest when the platform has no such transaction", () => {
    const delivered = contentDigest(tx());
    expect(compareWithPlatform(delivered, null)).toEqual({
      kind: "refused",
      refusal: { code: "DELIVERY_MISMATCH", deliveredDigest: delivered, platformDigest: null, platformState: null, platformCopy: null },
    });
  });

  it("is NOT_AWAITING_SIGNATURE for the same content in another state, and a mismatch first when the content differs too", () => {
    const canceled = tx({ state: "CANCELED" });
    expect(compareWithPlatform(contentDigest(tx()), canceled)).toMatchObject({ kind: "refused", refusal: { code: "NOT_AWAITING_SIGNATURE", platformState: "CANCELED" } });
    expect(
      compareWithPlatform(
        contentDigest(tx({ transfers: [{ destinationAddress: { value: "0x1111111111111111111111111111111111111111" }, amount: "5", asset: "assets/native.ethereum-mainnet" }] })),
        canceled,
      ),
    ).toMatchObject({ refusal: { code: "DELIVERY_MISMATCH" } });
  });
});
