import { describe, expect, it } from "vitest";
import { clientKey } from "./client-address.js";
import { ReadSlots } from "./read-slots.js";

describe("ReadSlots", () => {
  it("refuses a client past its share while others still get slots, and the total past the total", () => {
    const slots = new ReadSlots({ total: 3, perClient: 2 });
    const a1 = slots.take("a");
    const a2 = slots.take("a");
    expect(slots.take("a")).toEqual({ refused: "client_busy" });
    const b1 = slots.take("b");
    expect("release" in b1).toBe(true);
    expect(slots.take("c")).toEqual({ refused: "all_busy" });
    if (!("release" in a1) || !("release" in a2)) throw new Error("no slot");
    a1.release();
    a1.release(); // twice gives back one slot, not two
    expect("release" in slots.take("c")).toBe(true);
    expect(slots.take("d")).toEqual({ refused: "all_busy" });
  });
});

describe("clientKey", () => {
  it.each([
    ["127.0.0.2", "127.0.0.2"],
    ["::ffff:127.0.0.2", "127.0.0.2"],
    ["2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"],
    ["2001:0db8:0001:0002:ffff:1:2:3", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    [undefined, "unknown"],
    ["not an address", "unknown"],
  ])("counts %s as %s", (address, key) => {
    expect(clientKey(address)).toBe(key);
  });
});
