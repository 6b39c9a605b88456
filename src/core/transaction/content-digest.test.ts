import { describe, expect, it } from "vitest";
import { parseTransaction } from "./parse.js";
import { apiBody, apiTransfer } from "./test-bodies.js";
import type { Transaction } from "./types.js";
import { contentDigest } from "./content-digest.js";

const parsed = (body: unknown): Transaction => {
  const result = parseTransaction(body);
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
};

describe("contentDigest", () => {
  // An Aleo operation's program and transition were delivery metadata, so a
  // redelivery calling another program repeated the decision made for the first.
  it("covers which program and transition an undecoded Aleo operation calls", () => {
    const call = (program: string, transition: string) => parsed(apiBody([apiTransfer()], { aleoTransaction: { operations: [{ program, transition }] } }));
    const first = call("token_registry.aleo", "transfer_public");
    expect(first.payloads).toEqual(["aleo:unknown"]);
    expect(contentDigest(call("vault_drain.aleo", "transfer_public"))).not.toBe(contentDigest(first));
    expect(contentDigest(call("token_registry.aleo", "approve_all"))).not.toBe(contentDigest(first));
    expect(contentDigest(call("token_registry.aleo", "transfer_public"))).toBe(contentDigest(first));
  });
});
