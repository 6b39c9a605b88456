import { describe, expect, it } from "vitest";
import { addressBookFreshness, isAddressBookStale } from "../../../src/addressbook/freshness.js";

const now = new Date("2026-11-21T12:00:00Z");
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
const view = (syncedAt: Date | null, configured = true) => ({ configured, vault: "vaults/v1", syncedAt });

describe("address-book freshness", () => {
  it("a vault without sync configured is never stale", () => {
    expect(addressBookFreshness(view(null, false), now, 900)).toEqual({ stale: false, ageSeconds: null, reason: null });
  });

  it("a configured vault that was never synced is stale", () => {
    const f = addressBookFreshness(view(null), now, 900);
    expect(f.stale).toBe(true);
    expect(f.reason).toMatch(/vaults\/v1.*not been synced/);
  });

  it("a copy up to the maximum age is fresh, one past it is stale", () => {
    expect(addressBookFreshness(view(ago(60)), now, 900)).toEqual({ stale: false, ageSeconds: 60, reason: null });
    expect(isAddressBookStale(view(ago(900)), now, 900)).toBe(false);
    expect(isAddressBookStale(view(new Date(ago(900).getTime() - 1)), now, 900)).toBe(true);
    const old = addressBookFreshness(view(ago(3600)), now, 900);
    expect(old).toMatchObject({ stale: true, ageSeconds: 3600 });
    expect(old.reason).toMatch(/3600s ago \(maximum 900s\)/);
  });

  it("a sync time up to a minute ahead of the clock counts as age 0, not as stale", () => {
    expect(addressBookFreshness(view(ago(-30)), now, 900)).toEqual({ stale: false, ageSeconds: 0, reason: null });
    expect(isAddressBookStale(view(ago(-60)), now, 900)).toBe(false);
  });

  // A copy stamped an hour ahead by a process with a fast clock stayed fresh for
  // the maximum age plus that hour, and kept an entry removed on the platform approved meanwhile.
  it("a sync time further ahead is stale: the clocks disagree", () => {
    const f = addressBookFreshness(view(ago(-3600)), now, 900);
    expect(f).toMatchObject({ stale: true, ageSeconds: 0 });
    expect(f.reason).toMatch(/vaults\/v1 is dated 3600s ahead of this process's clock/);
    expect(isAddressBookStale(view(ago(-61)), now, 900)).toBe(true);
  });
});
