import { createHash } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { groupHashHex, groupLockId, lockIdOfHash } from "./group-hash.js";

describe("group hash and lock id", () => {
  it("the lock id is the first 8 bytes of the key's SHA-256, signed big-endian", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 80 }), (key) => {
        const digest = createHash("sha256").update(key, "utf8").digest();
        expect(groupHashHex(key)).toBe(digest.toString("hex"));
        expect(groupLockId(key)).toBe(digest.readBigInt64BE(0));
        expect(lockIdOfHash(groupHashHex(key))).toBe(digest.readBigInt64BE(0));
      }),
      { numRuns: 2_000 },
    );
  });
});
