/**
 * A token allowance names its spender and approver in the spelling of its network's accounts. On
 * Tron a rule, the address book and the windows know an account as base58 `T…` or as `41` and its
 * 20 bytes (the two compare as one); `0x` and the 20 bytes, as Tron's virtual machine writes it,
 * is other text. On a Substrate network they know SS58, not the 32-byte public key in hex. Through
 * the real service, under a deny rule naming a spender: another spelling of it is refused (400,
 * left pending), never signed past the rule (found by a review of the Tron and Substrate fixes,
 * which checked transfers' endpoints but not allowances').
 */
import { describe, expect, it } from "vitest";
import { HOT_WALLET, transactionName } from "../support/bodies.js";
import { serviceWithPolicy } from "../support/service.js";

/** USDT's contract on Tron, in base58 and as `41` and its 20 bytes. */
const TRON_SPENDER = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
const TRON_SPENDER_HEX = "a614f803b6fd780986a42c78ec9c7f77e6ded13c";
/** Alice's well-known development account, in generic SS58 and as its public key. */
const SUBSTRATE_SPENDER = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY";
const SUBSTRATE_SPENDER_KEY = "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d";

const POLICY = (spender: string) => `
version: "allowance-deny-list.1"
default: deny
rules:
  - id: sanctioned-spender
    decision: deny
    reason: The allowance's spender is on the deny list
    when: {"some": [{"var": "tx.tokenAllowances"}, {"in": [{"var": "spender"}, ["${spender}"]]}]}
  - id: everything-else
    decision: allow
    when: true
`;

const approval = (network: string, asset: string, destination: string, spender: string) => ({
  name: transactionName("allow"),
  type: "TRANSACTION",
  subType: "TOKEN_TRANSFER",
  network: `networks/${network}`,
  request: { sourceWallet: HOT_WALLET },
  transfers: [{ destinationAddress: { value: destination }, amount: "1", asset }],
  tokenAllowances: [{ spenderAddress: { value: spender }, asset, amount: "1000" }],
});

describe("a deny rule naming a Tron spender against its other spellings", () => {
  const suite = serviceWithPolicy(POLICY(TRON_SPENDER));
  const asset = `assets/trc20.tron-mainnet.${TRON_SPENDER}`;
  const body = (spender: string) => approval("tron-mainnet", asset, "TZ4UXDV5ZhNW7fb2AMSbgfAEZ7hWsnYS2g", spender);

  it.each([TRON_SPENDER, `41${TRON_SPENDER_HEX}`])("cancels the spender as %s", async (spender) => {
    expect((await suite.cosigner.deliver(body(spender))).verdict).toBe("canceled");
  });

  it.each([`0x${TRON_SPENDER_HEX}`, `0X${TRON_SPENDER_HEX.toUpperCase()}`])("leaves %s pending (400), never signed", async (spender) => {
    const delivery = await suite.cosigner.deliver(body(spender));
    expect(delivery.status).toBe(400);
    expect(JSON.stringify(delivery.body)).toContain("a Tron account must be written in base58");
    expect(delivery.verdict).toBe("pending");
  });
});

describe("a deny rule naming a Polkadot spender against its public key in hex", () => {
  const suite = serviceWithPolicy(POLICY(SUBSTRATE_SPENDER));
  const asset = "assets/substrate.polkadot-assethub-mainnet.1984";
  const body = (spender: string) => approval("polkadot-assethub-mainnet", asset, "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5", spender);

  it("cancels the spender in SS58", async () => {
    expect((await suite.cosigner.deliver(body(SUBSTRATE_SPENDER))).verdict).toBe("canceled");
  });

  it("leaves the public key in hex pending (400), never signed", async () => {
    const delivery = await suite.cosigner.deliver(body(SUBSTRATE_SPENDER_KEY));
    expect(delivery.status).toBe(400);
    expect(JSON.stringify(delivery.body)).toContain("a Substrate account must be written in SS58");
    expect(delivery.verdict).toBe("pending");
  });
});
