/**
 * A Substrate account is SS58, whatever its network prefix. Its 32-byte public key in hex is a
 * spelling polkadot-js takes, which a deny rule naming the SS58 account would not see: refused in
 * an allowance's spender, never converted.
 */
import { describe, expect, it } from "vitest";
import { asRuleNames, spenderAsRead } from "../test-readings.js";

/** Alice's well-known development account, in generic SS58, Polkadot's SS58 and as its public key. */
const ALICE = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY";
const ALICE_POLKADOT = "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5";
const ALICE_KEY = "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d";
const spender = (written: string) => spenderAsRead("polkadot-assethub-mainnet", "assets/substrate.polkadot-assethub-mainnet.1984", ALICE_POLKADOT, written);

describe("a Substrate allowance's spender", () => {
  it.each([ALICE, ALICE_POLKADOT])("%s is the account a rule naming it in generic SS58 compares", (written) => {
    expect(spender(written)).toEqual(asRuleNames(ALICE));
  });

  it("as its public key in hex is refused", () => {
    expect(spender(ALICE_KEY)).toEqual({ refused: expect.stringContaining("a Substrate account must be written in SS58") });
  });
});
