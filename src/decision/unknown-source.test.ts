import { describe, expect, it } from "vitest";
import { notConfiguredView, type AddressBookView } from "../addressbook/types.js";
import type { TransferFacts } from "../facts/types.js";
import type { WindowSpec } from "../policy/types.js";
import { unknownSourceHold } from "./unknown-source.js";

const VAULT = "vaults/v1";
const window = (groupBy: WindowSpec["groupBy"]) => ({ name: "w", durationSeconds: 86_400, groupBy, measure: "count" }) as WindowSpec;
const transfer = (wallet: string | null, address: string | null) => ({ source: { value: address ?? wallet, kind: wallet ? "wallet" : "address", wallet, address, internal: false } }) as unknown as TransferFacts;
const synced: AddressBookView = { ...notConfiguredView(VAULT), configured: true, syncedAt: new Date(0) };

describe("a source whose wallet is unknown", () => {
  it("holds nothing when no window groups by source wallet, or every source's wallet is known", () => {
    expect(unknownSourceHold([window(["asset", "destination"])], [transfer(null, "0xabc")], synced)).toBeNull();
    expect(unknownSourceHold([window(["sourceWallet"])], [transfer(`${VAULT}/wallets/w1`, "0xabc")], synced)).toBeNull();
  });

  it("defers with sync (a later sync may know it) and denies without (none ever will)", () => {
    const transfers = [transfer(`${VAULT}/wallets/w1`, null), transfer(null, "0xabc")];
    expect(unknownSourceHold([window(["sourceWallet", "asset"])], transfers, synced)).toMatchObject({ decision: "defer", reason: expect.stringContaining("0xabc") });
    expect(unknownSourceHold([window(["sourceWallet", "asset"])], transfers, notConfiguredView(VAULT))).toMatchObject({ decision: "deny", reason: expect.stringContaining("0xabc") });
  });
});
