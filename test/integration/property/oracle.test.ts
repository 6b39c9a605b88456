/**
 * The oracle's own classification, on the shared example bodies and on one body per kind of
 * hostile body: what it reads as a plain transfer, and what it refuses to call signable.
 */
import { describe, expect, it } from "vitest";
import { examplePolicyAllows, permissiveAllows, read } from "../../support/property/oracle.js";
import { exampleBodies } from "../../support/property/example-bodies.js";
import * as w from "../../support/property/world.js";

const view = w.addressBookView();
const examples = Object.fromEntries(exampleBodies().map((e) => [e.file, e.body]));
const evmExample = examples["api-shape-token-transfer-evm.json"]!;
/** The EVM example moving 1 USDC: its transfer and its calldata `transfer(0x5290…, 1000000)`. */
function small(body: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(body);
  (out.transfers as Record<string, unknown>[])[0]!.amount = "1";
  const evm = out.evmTransaction as Record<string, string>;
  evm.data = `${evm.data!.slice(0, -64)}${(1_000_000).toString(16).padStart(64, "0")}`;
  return out;
}

describe("the property suite's oracle", () => {
  it("reads the shared examples as their README says", () => {
    expect(examplePolicyAllows(read(evmExample, view), view)).toBeNull();
    expect(examplePolicyAllows(read(examples["api-shape-token-transfer.json"], view), view)).toBeNull();
    expect(read(examples["api-shape-token-transfer-with-allowance.json"], view)).toEqual({ signable: false, why: "tokenAllowances" });
    expect(read(examples["evm-delegation.json"], view)).toMatchObject({ signable: false });
    expect(permissiveAllows(read(examples["stellar-two-payments.json"], view))).toBeNull();
    // 120.5 USDC: above the permissive policy's 100.
    expect(permissiveAllows(read(evmExample, view))).toBe("a transfer above 100");
  });

  const payloads: [string, (b: Record<string, unknown>) => void, RegExp][] = [
    ["type MESSAGE", (b) => (b.type = "MESSAGE"), /type MESSAGE/],
    ["approve calldata", (b) => ((b.evmTransaction as Record<string, unknown>).data = `0x095ea7b3${"0".repeat(128)}`), /calldata/],
    ["a non-zero value on a token transfer", (b) => ((b.evmTransaction as Record<string, unknown>).value = "1"), /value and calldata/],
    ["an EIP-7702 authorization list", (b) => ((b.evmTransaction as Record<string, unknown>).authorizationDetails = { authorizationList: [{}] }), /EIP-7702/],
    ["an evmMessage", (b) => (b.evmMessage = { type: "PERSONAL_SIGN", message: "hi" }), /evmMessage/],
    ["a Tron vote", (b) => (b.tronTransaction = { voteWitness: { votes: [] } }), /tronTransaction.voteWitness/],
    ["an unclassified field", (b) => (b.somethingNew = { kept: true }), /unclassified field somethingNew/],
    ["rawAmount 23 orders of magnitude off", (b) => ((b.transfers as Record<string, unknown>[])[0]!.rawAmount = `1${"0".repeat(29)}`), /rawAmount/],
    [
      "a source wallet that contradicts request.sourceWallet",
      (b) => {
        (b.transfers as Record<string, unknown>[])[0]!.sourceAddress = { value: w.HOT };
        (b.request as Record<string, unknown>).sourceWallet = w.COLD;
      },
      /contradicts/,
    ],
    ["a Stellar changeTrust", (b) => (b.stellarTransaction = { operations: [{ decodedBody: { changeTrust: { asset: w.STELLAR_USDC } } }] }), /changeTrust/],
    [
      "a Stellar envelope",
      (b) => (b.stellarTransaction = { operations: [{ decodedBody: { changeTrust: { asset: w.STELLAR_USDC } } }], rawXdrEnvelope: "AAAA" }),
      /raw Stellar envelope/,
    ],
  ];
  it.each(payloads)("does not call a small transfer signable with %s beside it", (_, change, why) => {
    const body = small(evmExample);
    expect(permissiveAllows(read(body, view))).toBeNull();
    change(body);
    expect(permissiveAllows(read(body, view))).toMatch(why);
  });
});
